// How far a text gets through JSON's grammar, decided from its characters alone (never from the
// wording of JSON.parse's error, which differs between Node versions: Node 22+ appends
// "(line 1 column N)"). An append-only file uses it to tell a line cut short by a crash (`cut`:
// every character fits, the input ends before the value closes) from damage (`invalid`).

/** `complete`: one JSON value; `cut`: the start of one, ended early; `invalid`: no JSON text starts so. */
export type JsonPrefix = 'complete' | 'cut' | 'invalid';

const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;
/** The start of a number: what NUMBER's text can be cut to. */
const NUMBER_START = /^-?$|^-?(0|[1-9]\d*)(\.\d*)?$|^-?(0|[1-9]\d*)(\.\d+)?[eE][+-]?\d*$/;
const LITERALS = ['true', 'false', 'null'];
const ESCAPES = '"\\/bfnrtu';

/** Where a string that opens at `i` (a quote) ends: the index after its closing quote, or `cut`/`invalid`. */
function stringEnd(s: string, i: number): number | 'cut' | 'invalid' {
  for (let j = i + 1; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c === 0x22) return j + 1;
    if (c < 0x20) return 'invalid';
    if (c !== 0x5c) continue;
    const e = s[j + 1];
    if (e === undefined) return 'cut';
    if (!ESCAPES.includes(e)) return 'invalid';
    if (e === 'u') {
      const hex = s.slice(j + 2, j + 6);
      if (!/^[0-9a-fA-F]*$/.test(hex)) return 'invalid';
      if (hex.length < 4) return 'cut';
      j += 4;
    }
    j += 1;
  }
  return 'cut';
}

/**
 * Reads `s` as JSON's grammar does, one character at a time.
 * @example jsonPrefix('{"ts":"2026-') // 'cut'
 * @example jsonPrefix('{"a":1} x') // 'invalid'
 */
export function jsonPrefix(s: string): JsonPrefix {
  /** Open containers, innermost last. */
  const stack: string[] = [];
  type State = 'value' | 'valueOrClose' | 'keyOrClose' | 'key' | 'colon' | 'commaOrClose' | 'done';
  let state: State = 'value';
  const closed = (): State => (stack.length === 0 ? 'done' : 'commaOrClose');
  let i = 0;
  while (i < s.length) {
    const c = s[i] ?? '';
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    const top = stack[stack.length - 1];
    if (state === 'done') return 'invalid';
    if (state === 'colon') {
      if (c !== ':') return 'invalid';
      state = 'value';
      i++;
    } else if (state === 'commaOrClose') {
      if (c === ',') state = top === '{' ? 'key' : 'value';
      else if ((c === '}' && top === '{') || (c === ']' && top === '[')) {
        stack.pop();
        state = closed();
      } else return 'invalid';
      i++;
    } else if (state === 'keyOrClose' || state === 'key') {
      if (c === '}' && state === 'keyOrClose') {
        stack.pop();
        state = closed();
        i++;
      } else if (c === '"') {
        const end = stringEnd(s, i);
        if (typeof end !== 'number') return end;
        state = 'colon';
        i = end;
      } else return 'invalid';
    } else if (c === ']' && state === 'valueOrClose') {
      stack.pop();
      state = closed();
      i++;
    } else if (c === '{' || c === '[') {
      stack.push(c);
      state = c === '{' ? 'keyOrClose' : 'valueOrClose';
      i++;
    } else if (c === '"') {
      const end = stringEnd(s, i);
      if (typeof end !== 'number') return end;
      state = closed();
      i = end;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      let j = i;
      while (j < s.length && /[-+.eE0-9]/.test(s[j] ?? '')) j++;
      const num = s.slice(i, j);
      if (j === s.length && !NUMBER.test(num)) return NUMBER_START.test(num) ? 'cut' : 'invalid';
      if (!NUMBER.test(num)) return 'invalid';
      state = closed();
      i = j;
    } else {
      const rest = s.slice(i);
      const word = LITERALS.find((w) => rest.startsWith(w));
      if (word === undefined) return LITERALS.some((w) => w.startsWith(rest)) ? 'cut' : 'invalid';
      state = closed();
      i += word.length;
    }
  }
  return state === 'done' ? 'complete' : 'cut';
}
