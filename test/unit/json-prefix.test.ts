// jsonPrefix reads JSON's grammar from the characters: a text cut short is `cut` wherever it is
// cut, a text with a character JSON cannot have there is `invalid`, on every Node.
import { expect, it } from 'vitest';
import { jsonPrefix } from '../../src/core/json-prefix.js';

const docs = [
  '{"ts":"2026-01-01T00:00:00.000Z","a":[1,-2.5e+3,0.25,true,false,null,{}],"s":"q\\"\\\\\\/\\u00e9\\n","o":{"x":[]}}',
  '[ 1 , { "k" : "v" } ]',
  '"text"',
  '-0.5E-2',
];

it('every proper prefix of a JSON document is cut, the document complete', () => {
  for (const doc of docs) {
    expect(jsonPrefix(doc), doc).toBe('complete');
    for (let n = 0; n < doc.length; n++) {
      // A number at the top level is complete at any length that is a number.
      if (doc === '-0.5E-2' && ['-0', '-0.5'].includes(doc.slice(0, n))) continue;
      expect(jsonPrefix(doc.slice(0, n)), doc.slice(0, n)).toBe('cut');
    }
  }
  expect(jsonPrefix('{"a":"\uFFFD')).toBe('cut'); // a multi-byte character torn in two
});

it('a character JSON cannot have where it stands is invalid, however early', () => {
  for (const bad of [
    'garbage',
    '{"ts":"x"} x',
    '{"a" 1',
    '{"a":1,}',
    '{,',
    '[1,]',
    '{"a":01}',
    '{"a":1.}',
    '{"a":.5}',
    '{"a":tx',
    '{"a":truex}',
    '{"a":"\\x"}',
    '{"a":"\\u12g4"}',
    '{"a":"tab\there"}',
    '{"a":1]',
    '[1}',
    '{1:2}',
    "{'a':1}",
    '}',
  ])
    expect(jsonPrefix(bad), bad).toBe('invalid');
});
