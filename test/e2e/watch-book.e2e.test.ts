// pm book <slug> --watch through a pseudo-terminal: the alternate screen, a redraw after a
// trade, and the terminal restored on Ctrl-C (exit 130).
import { describe, expect, it } from 'vitest';
import { runInPty } from '../helpers/pty.js';
import { useSandbox } from '../helpers/sandbox.js';
import { tempHome } from '../helpers/run.js';
import { newMarket, place } from '../helpers/stream.js';

const sb = useSandbox();

describe('pm book --watch on a terminal', () => {
  it('redraws in place after a trade and restores the screen on Ctrl-C', async () => {
    await newMarket(sb.current, 'pty-book');
    place(sb.current, 1001, { slug: 'pty-book', side: 'BUY', price: 300_000n, size: 4_000_000n });
    const h = tempHome();
    try {
      const { code, screen, raw } = await runInPty(
        ['node', 'bin/pm.js', 'book', 'pty-book', '--watch'],
        [
          {
            waitFor: /bid\s+0\.300\s+4\b/,
            send: '',
            then: () =>
              void place(sb.current, 1002, { slug: 'pty-book', side: 'BUY', outcome: 1, price: 700_000n, size: 1_000_000n, type: 'FAK' }),
          },
          { waitFor: /bid\s+0\.300\s+3\b/, send: '\x03' },
        ],
        {
          PATH: process.env['PATH'],
          HOME: process.env['HOME'],
          PM_HOME: h.home,
          PM_BASE_URL: sb.current.baseUrl,
          PM_WS_URL: sb.current.wsUrl,
        },
      );
      expect(code).toBe(130);
      expect(screen).toContain('pty-book  order book (YES)');
      expect(raw.indexOf('\x1b[?1049h')).toBeGreaterThanOrEqual(0); // the alternate screen…
      expect(raw.lastIndexOf('\x1b[?1049l')).toBeGreaterThan(raw.lastIndexOf('order book (YES)')); // …left after the last draw
      expect(raw.lastIndexOf('\x1b[?25h')).toBeGreaterThan(raw.lastIndexOf('\x1b[?25l')); // cursor shown again
      expect((raw.match(/\x1b\[H\x1b\[2J/g) ?? []).length).toBeGreaterThanOrEqual(2); // redrawn in place, not scrolled
      expect(screen).not.toMatch(/error/);
    } finally {
      h.cleanup();
    }
  });
});
