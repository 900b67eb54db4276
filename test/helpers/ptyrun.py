# Runs a command under a pseudo-terminal (no native node modules needed): the child sees a TTY
# on stdin, stdout and stderr; this process relays the terminal to its own stdout and its own
# stdin to the terminal. Exits with the child's exit code. The terminal is PTY_COLUMNS wide
# (default 120) and PTY_ROWS high (40), set by the child before it runs the command; with
# PTY_STDERR=<file> the child's stderr goes to that file instead (stdout alone on the terminal).
import fcntl, os, pty, select, struct, sys, termios

pid, fd = pty.fork()
if pid == 0:
    size = struct.pack("HHHH", int(os.environ.get("PTY_ROWS", "40")), int(os.environ.get("PTY_COLUMNS", "120")), 0, 0)
    fcntl.ioctl(0, termios.TIOCSWINSZ, size)
    if os.environ.get("PTY_STDERR"):
        os.dup2(os.open(os.environ["PTY_STDERR"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), 2)
    os.execvp(sys.argv[1], sys.argv[1:])
stdin_open = True
while True:
    fds = [fd] + ([0] if stdin_open else [])
    r, _, _ = select.select(fds, [], [], 30)
    if not r:
        break
    if fd in r:
        try:
            data = os.read(fd, 4096)
        except OSError:
            break
        if not data:
            break
        os.write(1, data)
    if stdin_open and 0 in r:
        data = os.read(0, 4096)
        if not data:
            stdin_open = False
        else:
            os.write(fd, data)
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status))
