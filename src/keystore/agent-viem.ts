// viem's hashing and serialisation for accounts served by the session agent (agent.ts), in a
// module of their own so that they load only when a command signs something other than an order.
import { hashMessage, hashTypedData, keccak256, parseSignature, serializeTransaction } from 'viem';

export { hashMessage, hashTypedData, keccak256, parseSignature, serializeTransaction };
