// The client's trading core: amounts, EIP-712, request building, the journal, placement.
export * from './amounts.js';
export * from './eip712.js';
export * from './build.js';
export * from './journal.js';
export * from './place.js';
export * from './session.js';
export * from './flow.js';
export * from './batch.js';
