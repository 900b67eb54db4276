// What a private key (32 bytes of hex, with or without 0x) or a token secret (32 bytes of
// base64) looks like: pm never takes one on the command line, and never repeats one it was given
// where a name or a path goes (in an error message, or the shell's history).

const HEX_KEY = /^(0x)?[0-9a-fA-F]{64}$/;
const BASE64_SECRET = /^[A-Za-z0-9+/]{43}=$/;

/** Whether `word` has the shape of a private key or a token secret. */
export function looksLikeSecret(word: string): boolean {
  return HEX_KEY.test(word) || BASE64_SECRET.test(word);
}
