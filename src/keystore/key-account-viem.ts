// viem's signing functions for pm's key accounts (key-account.ts), in a module of
// their own so that they load only when a command signs something other than an order digest.
import { signAuthorization, signMessage, signTransaction, signTypedData } from 'viem/accounts';

export { signAuthorization, signMessage, signTransaction, signTypedData };
