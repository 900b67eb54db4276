#!/bin/sh
# An example bot for cron: buys YES when the best ask is below a limit. It shows the habits a
# scheduled job needs with pm:
#   - no prompt ever: the passphrase comes from a 0600 file (--passphrase-file), CI-style;
#   - --json output parsed with jq, never the table;
#   - exit codes decide what happens next (2 bad input, 3 auth, 5 conflict, 6 rate limited,
#     7 network or unknown outcome, 9 refused by the exchange);
#   - a client id derived from the market and the date, so a re-run (cron retry, a crash, a lost
#     answer) never places a second order: pm journals it and asks the exchange first.
#
# crontab: */5 * * * * PM_PROFILE=sandbox /path/to/examples/bot.sh >> ~/pm-bot.log 2>&1
# Try it:  pm sandbox start --detach && pm init --sandbox --yes && pm unlock --for 10m && PM_PROFILE=sandbox examples/bot.sh
# (pm unlock keeps the keys unlocked for 10 minutes, as ssh-agent does: no passphrase file needed to try)
set -u
MARKET=${MARKET:-btc-100k-2026}
LIMIT=${LIMIT:-0.70}     # pay at most this per YES share
SIZE=${SIZE:-5}
PASSFILE=${PASSFILE:-$HOME/.pm-pass}
PM=${PM:-pm}             # or: PM="node bin/pm.js" from a clone

pass_flag=""
[ -f "$PASSFILE" ] && pass_flag="--passphrase-file $PASSFILE"

# Best ask of the YES side; a failure here (exit 7: exchange unreachable) just waits for the next run.
# (The exit code is kept before any test: `if ! cmd` would leave $? at 0.)
book=$($PM --json --non-interactive book "$MARKET")
code=$?
if [ "$code" -ne 0 ]; then
  echo "$(date -u +%FT%TZ) book failed (exit $code), trying again next run" >&2
  exit 0
fi
ask=$(printf '%s' "$book" | jq -r '.asks[0].price // empty')
if [ -z "$ask" ]; then echo "$(date -u +%FT%TZ) no ask on $MARKET"; exit 0; fi
if awk -v a="$ask" -v l="$LIMIT" 'BEGIN { exit !(a > l) }'; then echo "$(date -u +%FT%TZ) ask $ask above $LIMIT, nothing to do"; exit 0; fi

# One order per market per day, whatever the number of runs.
cid="bot-$MARKET-$(date -u +%Y%m%d)"
# shellcheck disable=SC2086
out=$($PM --json --non-interactive $pass_flag order place "$MARKET" buy yes --price "$LIMIT" --size "$SIZE" --client-id "$cid")
code=$?
case $code in
  0) echo "$(date -u +%FT%TZ) $cid: $(printf '%s' "$out" | jq -c '{orderId, settlementStatus, alreadyPlaced}')" ;;
  7) echo "$(date -u +%FT%TZ) $cid: outcome unknown; the next run re-sends the same client id safely" >&2 ;;
  6) echo "$(date -u +%FT%TZ) $cid: rate limited, next run" >&2 ;;
  2|3|5|9) echo "$(date -u +%FT%TZ) $cid: refused (exit $code), needs a human" >&2; exit "$code" ;;
  *) echo "$(date -u +%FT%TZ) $cid: unexpected exit $code" >&2; exit "$code" ;;
esac
