# fish completion for pm (generated from the command registry; do not edit)
complete -c pm -f
complete -c pm -l profile
complete -c pm -l json
complete -c pm -l output
complete -c pm -l base-url
complete -c pm -l ws-url
complete -c pm -l verbose
complete -c pm -l quiet
complete -c pm -l no-color
complete -c pm -l non-interactive
complete -c pm -l yes
complete -c pm -l timeout
complete -c pm -l passphrase-file
complete -c pm -l help
complete -c pm -l version
complete -c pm -n '__fish_use_subcommand' -a markets -d 'Browse markets: list, search, show, price history, trade feed, market pages'
complete -c pm -n '__fish_use_subcommand' -a book -d 'Order book of a market: both sides, spread, midpoint, depth'
complete -c pm -n '__fish_use_subcommand' -a config -d 'Read and change settings of the active profile'
complete -c pm -n '__fish_use_subcommand' -a profile -d 'Named profiles (exchange, wallet, token)'
complete -c pm -n '__fish_use_subcommand' -a sandbox -d 'The embedded local exchange for demos, tests and your own bots'
complete -c pm -n '__fish_use_subcommand' -a whoami -d 'Show the active identity, verified with the exchange (profile, fee rate, scopes, credential source)'
complete -c pm -n '__fish_use_subcommand' -a completion -d 'Shell completion scripts'
complete -c pm -n '__fish_use_subcommand' -a demo -d 'A guided tour of pm against a fresh in-process sandbox'
complete -c pm -n '__fish_seen_subcommand_from markets; and not __fish_seen_subcommand_from list search show history feed page' -a list -d 'List active markets'
complete -c pm -n '__fish_seen_subcommand_from list' -l limit -d 'markets per page (1-25)'
complete -c pm -n '__fish_seen_subcommand_from list' -l page -d 'page number, from 1'
complete -c pm -n '__fish_seen_subcommand_from list' -l all -d 'follow every page'
complete -c pm -n '__fish_seen_subcommand_from list' -l sort -d 'sort order' -xa 'lp_rewards ending_soon newest high_value liquidity'
complete -c pm -n '__fish_seen_subcommand_from list' -l type -d 'trade type' -xa 'clob amm group'
complete -c pm -n '__fish_seen_subcommand_from list' -l category -d 'category id'
complete -c pm -n '__fish_seen_subcommand_from markets; and not __fish_seen_subcommand_from list search show history feed page' -a search -d 'Search markets by text'
complete -c pm -n '__fish_seen_subcommand_from search' -l limit -d 'results per page'
complete -c pm -n '__fish_seen_subcommand_from search' -l page -d 'page number, from 1'
complete -c pm -n '__fish_seen_subcommand_from markets; and not __fish_seen_subcommand_from list search show history feed page' -a show -d 'Show one market: outcomes, position ids, prices, volume, deadline, venue'
complete -c pm -n '__fish_seen_subcommand_from markets; and not __fish_seen_subcommand_from list search show history feed page' -a history -d 'YES price history of a market'
complete -c pm -n '__fish_seen_subcommand_from history' -l interval -d 'bucket size' -xa '1h 6h 1d 1w 1m all'
complete -c pm -n '__fish_seen_subcommand_from history' -l from -d 'start time (ISO 8601)'
complete -c pm -n '__fish_seen_subcommand_from history' -l to -d 'end time (ISO 8601)'
complete -c pm -n '__fish_seen_subcommand_from markets; and not __fish_seen_subcommand_from list search show history feed page' -a feed -d 'Recent trades and events of a market'
complete -c pm -n '__fish_seen_subcommand_from feed' -l limit -d 'events per page'
complete -c pm -n '__fish_seen_subcommand_from feed' -l page -d 'page number, from 1'
complete -c pm -n '__fish_seen_subcommand_from markets; and not __fish_seen_subcommand_from list search show history feed page' -a page -d 'Markets of a market page (e.g. /crypto), with paging and sorting'
complete -c pm -n '__fish_seen_subcommand_from page' -l limit -d 'markets per page'
complete -c pm -n '__fish_seen_subcommand_from page' -l page -d 'page number (offset paging)'
complete -c pm -n '__fish_seen_subcommand_from page' -l cursor -d 'cursor from a previous call (cursor paging)'
complete -c pm -n '__fish_seen_subcommand_from page' -l sort -d 'createdAt, updatedAt, deadline or id; prefix - for descending'
complete -c pm -n '__fish_seen_subcommand_from page' -l all -d 'follow every page'
complete -c pm -n '__fish_seen_subcommand_from config; and not __fish_seen_subcommand_from get set list' -a get -d 'Print one setting of the active profile'
complete -c pm -n '__fish_seen_subcommand_from config; and not __fish_seen_subcommand_from get set list' -a set -d 'Change one setting of the active profile'
complete -c pm -n '__fish_seen_subcommand_from config; and not __fish_seen_subcommand_from get set list' -a list -d 'List the settings of the active profile and where each value comes from'
complete -c pm -n '__fish_seen_subcommand_from profile; and not __fish_seen_subcommand_from list use remove' -a list -d 'List profiles'
complete -c pm -n '__fish_seen_subcommand_from profile; and not __fish_seen_subcommand_from list use remove' -a use -d 'Make a profile the active one'
complete -c pm -n '__fish_seen_subcommand_from profile; and not __fish_seen_subcommand_from list use remove' -a remove -d 'Remove a profile (its wallet and secrets stay in the keystore)'
complete -c pm -n '__fish_seen_subcommand_from sandbox; and not __fish_seen_subcommand_from start stop status reset' -a start -d 'Start the embedded exchange on 127.0.0.1'
complete -c pm -n '__fish_seen_subcommand_from start' -l port -d 'TCP port (0 picks a free one)'
complete -c pm -n '__fish_seen_subcommand_from start' -l host -d 'address to listen on'
complete -c pm -n '__fish_seen_subcommand_from start' -l ephemeral -d 'keep state in memory only'
complete -c pm -n '__fish_seen_subcommand_from start' -l detach -d 'run in the background (see sandbox status/stop)'
complete -c pm -n '__fish_seen_subcommand_from sandbox; and not __fish_seen_subcommand_from start stop status reset' -a stop -d 'Stop a detached sandbox'
complete -c pm -n '__fish_seen_subcommand_from sandbox; and not __fish_seen_subcommand_from start stop status reset' -a status -d 'Show whether a detached sandbox is running, and its URLs'
complete -c pm -n '__fish_seen_subcommand_from sandbox; and not __fish_seen_subcommand_from start stop status reset' -a reset -d 'Restore the sandbox to its seed (running or stored state)'
complete -c pm -n '__fish_seen_subcommand_from completion' -a 'bash zsh fish'
