// A `pm shell` session: every line is an ordinary pm command run through main, with a Context
// that shares what the session already knows, so the keystore passphrase is asked once.
import type { Context } from '../cli/context.js';
import type { ShellSession } from '../cli/output.js';

type ContextClass = typeof Context;

/** A Context class whose passphrase comes from (and is kept by) the session. */
export function sessionContext(Base: ContextClass, s: ShellSession): ContextClass {
  return class SessionContext extends Base {
    override passphrase(message = 'Keystore passphrase'): Promise<string> {
      // A passphrase the line itself names (environment or file) wins, as outside the shell.
      if (this.env.PM_PASSPHRASE !== undefined || this.flags.passphraseFile !== undefined) return super.passphrase(message);
      const p = (s.pass ??= s.askPassphrase(message));
      p.catch(() => {
        if (s.pass === p) s.pass = undefined;
      });
      return p;
    }

    override forgetPassphrase(): void {
      super.forgetPassphrase();
      s.pass = undefined;
    }
  };
}
