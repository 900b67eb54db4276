# bash completion for pm (generated from the command registry; do not edit)
_pm() {
  local cur cword words_
  cur="${COMP_WORDS[COMP_CWORD]}"
  cword=$COMP_CWORD
  if [ "$cword" -eq 1 ]; then
    words_="markets book config profile sandbox init wallet token order watch whoami completion demo doctor lock unlock portfolio positions withdraw withdrawal-address redeem partner approve balance redeem-onchain --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version"
  else
    case "${COMP_WORDS[1]}" in
    markets)
      if [ "$cword" -eq 2 ]; then words_="list search show history feed page"; else case "${COMP_WORDS[2]}" in
        list) words_="--limit --page --all --sort --type --category --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        search) words_="--limit --page --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        show) words_="--profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        history) words_="--interval --from --to --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        feed) words_="--limit --page --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        page) words_="--limit --page --cursor --sort --all --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
      esac; fi ;;
    config)
      if [ "$cword" -eq 2 ]; then words_="get set list"; else case "${COMP_WORDS[2]}" in
        get) words_="--profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        set) words_="--profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        list) words_="--profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
      esac; fi ;;
    profile)
      if [ "$cword" -eq 2 ]; then words_="list use remove"; else case "${COMP_WORDS[2]}" in
        list) words_="--profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        use) words_="--profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        remove) words_="--profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
      esac; fi ;;
    sandbox)
      if [ "$cword" -eq 2 ]; then words_="start stop status reset fund resolve"; else case "${COMP_WORDS[2]}" in
        start) words_="--port --host --ephemeral --detach --chain --chain-rpc --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        stop) words_="--profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        status) words_="--profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        reset) words_="--profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        fund) words_="--to --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        resolve) words_="--payout-pending --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
      esac; fi ;;
    wallet)
      if [ "$cword" -eq 2 ]; then words_="create import list address export remove passphrase"; else case "${COMP_WORDS[2]}" in
        create) words_="--force --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        import) words_="--file --stdin --keystore --keystore-passphrase-file --force --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        list) words_="--profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        address) words_="--profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        export) words_="--format --out --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        remove) words_="--profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        passphrase) words_="--new-passphrase-file --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
      esac; fi ;;
    token)
      if [ "$cword" -eq 2 ]; then words_="add derive list revoke capabilities"; else case "${COMP_WORDS[2]}" in
        add) words_="--token-id --secret-file --secret-stdin --label --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        derive) words_="--scopes --label --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        list) words_="--profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        revoke) words_="--profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        capabilities) words_="--profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
      esac; fi ;;
    order)
      if [ "$cword" -eq 2 ]; then words_="place cancel list status"; else case "${COMP_WORDS[2]}" in
        place) words_="--type --price --size --amount --post-only --client-id --on-behalf-of --delegated --dry-run --file --batch-id --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        cancel) words_="--client-id --all --on-behalf-of --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        list) words_="--market --all --on-behalf-of --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        status) words_="--client-id --on-behalf-of --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
      esac; fi ;;
    watch)
      if [ "$cword" -eq 2 ]; then words_="orders positions prices book markets tx"; else case "${COMP_WORDS[2]}" in
        orders) words_="--count --until --market --client-id --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        positions) words_="--count --until --market --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        prices) words_="--count --until --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        book) words_="--count --until --depth --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        markets) words_="--count --until --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        tx) words_="--count --until --market --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
      esac; fi ;;
    portfolio)
      if [ "$cword" -eq 2 ]; then words_="positions pnl trades history"; else case "${COMP_WORDS[2]}" in
        positions) words_="--market --resolved --redeemable --on-behalf-of --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        pnl) words_="--timeframe --on-behalf-of --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        trades) words_="--on-behalf-of --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        history) words_="--limit --all --since --on-behalf-of --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
      esac; fi ;;
    withdrawal-address)
      if [ "$cword" -eq 2 ]; then words_="add list remove"; else case "${COMP_WORDS[2]}" in
        add) words_="--label --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        list) words_="--all --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        remove) words_="--profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
      esac; fi ;;
    partner)
      if [ "$cword" -eq 2 ]; then words_="create list allowances onboard"; else case "${COMP_WORDS[2]}" in
        create) words_="--server-wallet --name --wallet --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        list) words_="--account --all --page --limit --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        allowances) words_="--retry --wait --wait-timeout --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        onboard) words_="--server-wallet --name --wallet --profile-name --wait --wait-timeout --fund --first-order --first-amount --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
      esac; fi ;;
    approve)
      if [ "$cword" -eq 2 ]; then words_="check set"; else case "${COMP_WORDS[2]}" in
        check) words_="--all --rpc-url --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
        set) words_="--all --side --amount --unlimited --dry-run --rpc-url --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
      esac; fi ;;
    book) words_="--depth --watch --count --until --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
    init) words_="--sandbox --account --profile-name --wallet --create-wallet --import-key-file --token-id --secret-file --derive --scopes --force --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
    whoami) words_="--profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
    completion) words_="bash zsh fish --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
    demo) words_="--profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
    doctor) words_="--profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
    lock) words_="--status --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
    unlock) words_="--for --status --foreground --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
    positions) words_="--market --resolved --redeemable --on-behalf-of --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
    withdraw) words_="--to --token --on-behalf-of --dry-run --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
    redeem) words_="--condition-id --all --on-behalf-of --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
    balance) words_="--rpc-url --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
    redeem-onchain) words_="--dry-run --rpc-url --profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
    *) words_="--profile --json --output --base-url --ws-url --verbose --quiet --no-color --non-interactive --yes --timeout --passphrase-file --help --version" ;;
    esac
  fi
  COMPREPLY=( $(compgen -W "$words_" -- "$cur") )
}
complete -F _pm pm
