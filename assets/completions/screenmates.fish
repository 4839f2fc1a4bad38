function __screenmates_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __screenmates_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __screenmates_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __screenmates_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __screenmates_parse_tokens -S
    set -l unparsed_tokens (__screenmates_tokens -pc)
    switch $unparsed_tokens[1]
    case 'screenmates'
        __screenmates_parse_subcommand 0 'home=' 'group-store=' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'dashboard'
            __screenmates_parse_subcommand 0 'home=' 'group-store=' 'speed=' 'start-at=' 'demo' 'seed=' 'scenario=' 'theme=' 'no-color' 'ascii' 'bell' 'desktop-notify' 'version' 'h/help'
        case 'setup'
            __screenmates_parse_subcommand 0 'home=' 'group-store=' 'speed=' 'start-at=' 'name=' 'vice=+' 'productive=+' 'day-start-hour=' 'goal=' 'version' 'h/help'
        case 'status'
            __screenmates_parse_subcommand 0 'home=' 'group-store=' 'speed=' 'start-at=' 'json' 'demo' 'version' 'h/help'
        case 'group'
            __screenmates_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'create'
                __screenmates_parse_subcommand 0 'home=' 'group-store=' 'goal=' 'week-start=' 'kept-day-coins=' 'over-day-coins=' 'missing-days=' 'speed=' 'start-at=' 'version' 'h/help'
            case 'join'
                __screenmates_parse_subcommand 1 'home=' 'group-store=' 'speed=' 'start-at=' 'version' 'h/help'
            case 'leave'
                __screenmates_parse_subcommand 0 'home=' 'group-store=' 'version' 'h/help'
            case 'show'
                __screenmates_parse_subcommand 0 'home=' 'group-store=' 'json' 'version' 'h/help'
            case 'set'
                __screenmates_parse_subcommand 0 'home=' 'group-store=' 'week-start=' 'kept-day-coins=' 'over-day-coins=' 'missing-days=' 'version' 'h/help'
            case 'prepare-store'
                __screenmates_parse_subcommand 0 'home=' 'group-store=' 'version' 'h/help'
            end
        case 'sync'
            __screenmates_parse_subcommand 0 'home=' 'group-store=' 'watch' 'speed=' 'start-at=' 'version' 'h/help'
        case 'monitor'
            __screenmates_parse_subcommand 0 'home=' 'group-store=' 'speed=' 'start-at=' 'seed=' 'count=' 'rate=' 'scenario=' 'source=' 'url=' 'host=' 'quiet' 'version' 'h/help'
        case 'demo'
            __screenmates_parse_subcommand 0 'home=' 'group-store=' 'speed=' 'start-at=' 'members=' 'seed=' 'version' 'h/help'
        case 'notify'
            __screenmates_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'test'
                __screenmates_parse_subcommand 0 'home=' 'group-store=' 'version' 'h/help'
            end
        case 'recover'
            __screenmates_parse_subcommand 0 'home=' 'group-store=' 'version' 'h/help'
        case 'export'
            __screenmates_parse_subcommand 0 'home=' 'group-store=' 'format=' 'days=' 'output=' 'include-hidden' 'version' 'h/help'
        case 'config'
            __screenmates_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'show'
                __screenmates_parse_subcommand 0 'home=' 'group-store=' 'version' 'h/help'
            case 'check'
                __screenmates_parse_subcommand 0 'home=' 'group-store=' 'version' 'h/help'
            case 'set'
                __screenmates_parse_subcommand -r 2 'home=' 'group-store=' 'version' 'h/help'
            end
        case 'import'
            __screenmates_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'activitywatch'
                __screenmates_parse_subcommand 0 'home=' 'group-store=' 'url=' 'since=' 'host=' 'version' 'h/help'
            end
        case 'apps'
            __screenmates_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'seen'
                __screenmates_parse_subcommand 0 'home=' 'group-store=' 'json' 'version' 'h/help'
            case 'add'
                __screenmates_parse_subcommand 1 'home=' 'group-store=' 'vice' 'productive' 'version' 'h/help'
            end
        case 'challenge'
            __screenmates_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'create'
                __screenmates_parse_subcommand 0 'home=' 'group-store=' 'speed=' 'start-at=' 'at-most=' 'quiet=' 'streak' 'app=' 'days=' 'reward=' 'penalty=' 'now' 'group' 'version' 'h/help'
            case 'join'
                __screenmates_parse_subcommand 1 'home=' 'group-store=' 'speed=' 'start-at=' 'version' 'h/help'
            case 'list'
                __screenmates_parse_subcommand 0 'home=' 'group-store=' 'speed=' 'start-at=' 'json' 'version' 'h/help'
            case 'show'
                __screenmates_parse_subcommand 1 'home=' 'group-store=' 'speed=' 'start-at=' 'json' 'version' 'h/help'
            case 'forfeit'
                __screenmates_parse_subcommand 1 'home=' 'group-store=' 'speed=' 'start-at=' 'yes' 'version' 'h/help'
            end
        case 'coins'
            __screenmates_parse_subcommand 0 'home=' 'group-store=' 'speed=' 'start-at=' 'json' 'version' 'h/help'
        case 'badges'
            __screenmates_parse_subcommand 0 'home=' 'group-store=' 'speed=' 'start-at=' 'json' 'version' 'h/help'
        case 'ranking'
            __screenmates_parse_subcommand 0 'home=' 'group-store=' 'speed=' 'start-at=' 'public' 'limit=' 'json' 'version' 'h/help'
        case 'week'
            __screenmates_parse_subcommand 0 'home=' 'group-store=' 'speed=' 'start-at=' 'json' 'version' 'h/help'
        case 'help'
            __screenmates_parse_subcommand -r 1 'version'
        end
    end
end

function __screenmates_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __screenmates_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __screenmates_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __screenmates_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__screenmates_tokens -p)
    if test -z "$(__screenmates_tokens -t)"
        set -l index (count (__screenmates_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'screenmates' -f
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates" home' -l 'home' -d 'Data directory (default: $SCREENMATES_HOME, else $XDG_DATA_HOME/screenmates, else ~/.local/share/screenmates).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates" group-store' -l 'group-store' -d 'The group store: a SQLite file shared on this host (default: group-store.sqlite in the home), or a PostgreSQL server: postgres://user@host:port/db, or postgres://user@/db?host=/socket/dir; also SCREENMATES_GROUP_STORE.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates" version' -l 'version' -d 'Show the version.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_positional "screenmates" -eq 1' -fa 'dashboard' -d 'Show the live dashboard (the default command; the first run asks for your name).'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_positional "screenmates" -eq 1' -fa 'setup' -d 'Set your display name and tracked apps without the setup screens.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_positional "screenmates" -eq 1' -fa 'status' -d 'Print the dashboard\'s numbers without the screen (--json for scripts).'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_positional "screenmates" -eq 1' -fa 'group' -d 'Create, join, leave or show your group.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_positional "screenmates" -eq 1' -fa 'sync' -d 'Report your numbers and finished days to the group store now, once (or, with --watch, as they change).'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_positional "screenmates" -eq 1' -fa 'monitor' -d 'Run the usage monitor: follow ActivityWatch, the focused window (X11, sway, Hyprland) or the terminal, or simulate usage.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_positional "screenmates" -eq 1' -fa 'demo' -d 'Simulated group-mates, so one person can watch a live leaderboard move.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_positional "screenmates" -eq 1' -fa 'notify' -d 'Notifications.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_positional "screenmates" -eq 1' -fa 'recover' -d 'Rescue what a damaged local database still holds.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_positional "screenmates" -eq 1' -fa 'export' -d 'Write your finished days as CSV or JSON.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_positional "screenmates" -eq 1' -fa 'config' -d 'Show, check or change the settings in config.toml.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_positional "screenmates" -eq 1' -fa 'import' -d 'Bring in past usage.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_positional "screenmates" -eq 1' -fa 'apps' -d 'Applications seen, and your vice and productive lists.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_positional "screenmates" -eq 1' -fa 'challenge' -d 'Challenges with coins at stake: your own, or your group\'s.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_positional "screenmates" -eq 1' -fa 'coins' -d 'Your coin balance and every entry of its ledger.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_positional "screenmates" -eq 1' -fa 'badges' -d 'The badges you have earned, and those still to earn.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_positional "screenmates" -eq 1' -fa 'ranking' -d 'Rank by coins: your group, or (--public) everyone who opted in.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_positional "screenmates" -eq 1' -fa 'week' -d 'Your group\'s weeks: the rules, and each member\'s settled result.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_positional "screenmates" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates dashboard" home' -l 'home' -d 'Data directory (default: $SCREENMATES_HOME, else $XDG_DATA_HOME/screenmates, else ~/.local/share/screenmates).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates dashboard" group-store' -l 'group-store' -d 'The group store: a SQLite file shared on this host (default: group-store.sqlite in the home), or a PostgreSQL server: postgres://user@host:port/db, or postgres://user@/db?host=/socket/dir; also SCREENMATES_GROUP_STORE.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates dashboard" speed' -l 'speed' -d 'Run the app clock N times faster than real time.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates dashboard" start-at' -l 'start-at' -d 'Start the app clock at this instant (2026-11-21T21:30:00Z, or local 2026-11-21T21:30).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates dashboard" demo' -l 'demo' -d 'Run the simulated usage monitor inside the dashboard, so the numbers move. Without --home, a demo (or --speed / --start-at) uses the demo directory inside the data directory, and a demo there starts afresh on every run (its profile stays).'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates dashboard" seed' -l 'seed' -d 'Seed for the demo monitor (default: derived from your user id).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates dashboard" scenario' -l 'scenario' -d 'Usage profile for the demo monitor: a name in assets/scenarios or a JSON file.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates dashboard" theme' -l 'theme' -d 'Colour theme: terminal, dark or light (default: the theme in your settings, else terminal).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates dashboard" no-color' -l 'no-color' -d 'No colours (also when NO_COLOR is set).'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates dashboard" ascii' -l 'ascii' -d 'Draw with ASCII characters only (automatic where the locale is not UTF-8).'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates dashboard" bell' -l 'bell' -d 'Ring the terminal bell with each notice.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates dashboard" desktop-notify' -l 'desktop-notify' -d 'Also send each notice to the desktop (OSC 777 / OSC 9 escape sequences, and notify-send where installed).'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates dashboard" version' -l 'version' -d 'Show the version.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates dashboard" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates setup" home' -l 'home' -d 'Data directory (default: $SCREENMATES_HOME, else $XDG_DATA_HOME/screenmates, else ~/.local/share/screenmates).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates setup" group-store' -l 'group-store' -d 'The group store: a SQLite file shared on this host (default: group-store.sqlite in the home), or a PostgreSQL server: postgres://user@host:port/db, or postgres://user@/db?host=/socket/dir; also SCREENMATES_GROUP_STORE.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates setup" speed' -l 'speed' -d 'Run the app clock N times faster than real time.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates setup" start-at' -l 'start-at' -d 'Start the app clock at this instant (2026-11-21T21:30:00Z, or local 2026-11-21T21:30).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates setup" name' -l 'name' -d 'Display name: 1-20 letters, digits or underscores.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates setup"' -l 'vice' -d 'Vice (distracting) apps.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates setup"' -l 'productive' -d 'Productive apps.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates setup" day-start-hour' -l 'day-start-hour' -d 'Hour (0-23) at which your day starts; 4 suits night owls.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates setup" goal' -l 'goal' -d 'Your own daily limit in vice blocks, used without a group (1-96).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates setup" version' -l 'version' -d 'Show the version.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates setup" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates status" home' -l 'home' -d 'Data directory (default: $SCREENMATES_HOME, else $XDG_DATA_HOME/screenmates, else ~/.local/share/screenmates).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates status" group-store' -l 'group-store' -d 'The group store: a SQLite file shared on this host (default: group-store.sqlite in the home), or a PostgreSQL server: postgres://user@host:port/db, or postgres://user@/db?host=/socket/dir; also SCREENMATES_GROUP_STORE.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates status" speed' -l 'speed' -d 'Run the app clock N times faster than real time.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates status" start-at' -l 'start-at' -d 'Start the app clock at this instant (2026-11-21T21:30:00Z, or local 2026-11-21T21:30).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates status" json' -l 'json' -d 'Print JSON with the keys listed in the README.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates status" demo' -l 'demo' -d 'Read the demo directory (where `dashboard --demo` keeps its data without --home).'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates status" version' -l 'version' -d 'Show the version.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates status" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates group" version' -l 'version' -d 'Show the version.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates group" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_positional "screenmates group" -eq 1' -fa 'create' -d 'Create a group and print its code to share.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_positional "screenmates group" -eq 1' -fa 'join' -d 'Join a group by its 6-character code.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_positional "screenmates group" -eq 1' -fa 'leave' -d 'Leave your group.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_positional "screenmates group" -eq 1' -fa 'show' -d 'Show your group and its members.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_positional "screenmates group" -eq 1' -fa 'set' -d 'Set how your group settles its weeks (any member may).'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_positional "screenmates group" -eq 1' -fa 'prepare-store' -d 'Create or update the group store\'s tables (run once by a PostgreSQL database\'s owner).'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates group create" home' -l 'home' -d 'Data directory (default: $SCREENMATES_HOME, else $XDG_DATA_HOME/screenmates, else ~/.local/share/screenmates).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates group create" group-store' -l 'group-store' -d 'The group store: a SQLite file shared on this host (default: group-store.sqlite in the home), or a PostgreSQL server: postgres://user@host:port/db, or postgres://user@/db?host=/socket/dir; also SCREENMATES_GROUP_STORE.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates group create" goal' -l 'goal' -d 'The group\'s daily limit in vice blocks (1-96).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates group create" week-start' -l 'week-start' -d 'The weekday the group\'s week starts (and closes) on: monday…sunday.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates group create" kept-day-coins' -l 'kept-day-coins' -d 'Coins a day within the limit earns at the week\'s close (0-1000; 5).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates group create" over-day-coins' -l 'over-day-coins' -d 'Coins a day over the limit costs (0-1000; 10).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates group create" missing-days' -l 'missing-days' -d 'Days not sent by the close: pending (the week waits for them) or worst-case (charged as over, at once).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates group create" speed' -l 'speed' -d 'Run the app clock N times faster than real time.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates group create" start-at' -l 'start-at' -d 'Start the app clock at this instant (2026-11-21T21:30:00Z, or local 2026-11-21T21:30).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates group create" version' -l 'version' -d 'Show the version.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates group create" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates group join" home' -l 'home' -d 'Data directory (default: $SCREENMATES_HOME, else $XDG_DATA_HOME/screenmates, else ~/.local/share/screenmates).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates group join" group-store' -l 'group-store' -d 'The group store: a SQLite file shared on this host (default: group-store.sqlite in the home), or a PostgreSQL server: postgres://user@host:port/db, or postgres://user@/db?host=/socket/dir; also SCREENMATES_GROUP_STORE.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates group join" speed' -l 'speed' -d 'Run the app clock N times faster than real time.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates group join" start-at' -l 'start-at' -d 'Start the app clock at this instant (2026-11-21T21:30:00Z, or local 2026-11-21T21:30).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates group join" version' -l 'version' -d 'Show the version.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates group join" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates group leave" home' -l 'home' -d 'Data directory (default: $SCREENMATES_HOME, else $XDG_DATA_HOME/screenmates, else ~/.local/share/screenmates).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates group leave" group-store' -l 'group-store' -d 'The group store: a SQLite file shared on this host (default: group-store.sqlite in the home), or a PostgreSQL server: postgres://user@host:port/db, or postgres://user@/db?host=/socket/dir; also SCREENMATES_GROUP_STORE.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates group leave" version' -l 'version' -d 'Show the version.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates group leave" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates group show" home' -l 'home' -d 'Data directory (default: $SCREENMATES_HOME, else $XDG_DATA_HOME/screenmates, else ~/.local/share/screenmates).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates group show" group-store' -l 'group-store' -d 'The group store: a SQLite file shared on this host (default: group-store.sqlite in the home), or a PostgreSQL server: postgres://user@host:port/db, or postgres://user@/db?host=/socket/dir; also SCREENMATES_GROUP_STORE.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates group show" json' -l 'json' -d 'Print JSON.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates group show" version' -l 'version' -d 'Show the version.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates group show" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates group set" home' -l 'home' -d 'Data directory (default: $SCREENMATES_HOME, else $XDG_DATA_HOME/screenmates, else ~/.local/share/screenmates).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates group set" group-store' -l 'group-store' -d 'The group store: a SQLite file shared on this host (default: group-store.sqlite in the home), or a PostgreSQL server: postgres://user@host:port/db, or postgres://user@/db?host=/socket/dir; also SCREENMATES_GROUP_STORE.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates group set" week-start' -l 'week-start' -d 'The weekday the group\'s week starts (and closes) on: monday…sunday.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates group set" kept-day-coins' -l 'kept-day-coins' -d 'Coins a day within the limit earns at the week\'s close (0-1000; 5).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates group set" over-day-coins' -l 'over-day-coins' -d 'Coins a day over the limit costs (0-1000; 10).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates group set" missing-days' -l 'missing-days' -d 'Days not sent by the close: pending (the week waits for them) or worst-case (charged as over, at once).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates group set" version' -l 'version' -d 'Show the version.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates group set" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates group prepare-store" home' -l 'home' -d 'Data directory (default: $SCREENMATES_HOME, else $XDG_DATA_HOME/screenmates, else ~/.local/share/screenmates).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates group prepare-store" group-store' -l 'group-store' -d 'The group store: a SQLite file shared on this host (default: group-store.sqlite in the home), or a PostgreSQL server: postgres://user@host:port/db, or postgres://user@/db?host=/socket/dir; also SCREENMATES_GROUP_STORE.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates group prepare-store" version' -l 'version' -d 'Show the version.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates group prepare-store" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates sync" home' -l 'home' -d 'Data directory (default: $SCREENMATES_HOME, else $XDG_DATA_HOME/screenmates, else ~/.local/share/screenmates).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates sync" group-store' -l 'group-store' -d 'The group store: a SQLite file shared on this host (default: group-store.sqlite in the home), or a PostgreSQL server: postgres://user@host:port/db, or postgres://user@/db?host=/socket/dir; also SCREENMATES_GROUP_STORE.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates sync" watch' -l 'watch' -d 'Keep reporting every change until stopped (Ctrl-C, SIGTERM).'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates sync" speed' -l 'speed' -d 'Run the app clock N times faster than real time.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates sync" start-at' -l 'start-at' -d 'Start the app clock at this instant (2026-11-21T21:30:00Z, or local 2026-11-21T21:30).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates sync" version' -l 'version' -d 'Show the version.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates sync" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates monitor" home' -l 'home' -d 'Data directory (default: $SCREENMATES_HOME, else $XDG_DATA_HOME/screenmates, else ~/.local/share/screenmates).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates monitor" group-store' -l 'group-store' -d 'The group store: a SQLite file shared on this host (default: group-store.sqlite in the home), or a PostgreSQL server: postgres://user@host:port/db, or postgres://user@/db?host=/socket/dir; also SCREENMATES_GROUP_STORE.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates monitor" speed' -l 'speed' -d 'Run the app clock N times faster than real time.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates monitor" start-at' -l 'start-at' -d 'Start the app clock at this instant (2026-11-21T21:30:00Z, or local 2026-11-21T21:30).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates monitor" seed' -l 'seed' -d 'Seed: the same seed makes the same events (and ids).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates monitor" count' -l 'count' -d 'Stop after this many events.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates monitor" rate' -l 'rate' -d 'Events per real second, or max for as fast as the store takes them.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates monitor" scenario' -l 'scenario' -d 'Play a scenario: a name in assets/scenarios (typical-day, evening-binge) or a JSON file.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates monitor" source' -l 'source' -d 'Where usage comes from: auto, activitywatch, x11, sway, hyprland, terminal or simulated (default: auto, see below).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates monitor" url' -l 'url' -d 'The ActivityWatch server (default http://127.0.0.1:5600; its testing port is 5666).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates monitor" host' -l 'host' -d 'Read the ActivityWatch buckets of this host (default: this machine, or the only one there).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates monitor" quiet' -l 'quiet' -d 'Print neither the event ids nor what the monitor waits for.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates monitor" version' -l 'version' -d 'Show the version.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates monitor" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates demo" home' -l 'home' -d 'Data directory (default: $SCREENMATES_HOME, else $XDG_DATA_HOME/screenmates, else ~/.local/share/screenmates).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates demo" group-store' -l 'group-store' -d 'The group store: a SQLite file shared on this host (default: group-store.sqlite in the home), or a PostgreSQL server: postgres://user@host:port/db, or postgres://user@/db?host=/socket/dir; also SCREENMATES_GROUP_STORE.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates demo" speed' -l 'speed' -d 'Run the app clock N times faster than real time.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates demo" start-at' -l 'start-at' -d 'Start the app clock at this instant (2026-11-21T21:30:00Z, or local 2026-11-21T21:30).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates demo" members' -l 'members' -d 'How many simulated members (1-200).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates demo" seed' -l 'seed' -d 'Seed for the members\' usage.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates demo" version' -l 'version' -d 'Show the version.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates demo" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates notify" version' -l 'version' -d 'Show the version.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates notify" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_positional "screenmates notify" -eq 1' -fa 'test' -d 'Send a test notice.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates notify test" home' -l 'home' -d 'Data directory (default: $SCREENMATES_HOME, else $XDG_DATA_HOME/screenmates, else ~/.local/share/screenmates).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates notify test" group-store' -l 'group-store' -d 'The group store: a SQLite file shared on this host (default: group-store.sqlite in the home), or a PostgreSQL server: postgres://user@host:port/db, or postgres://user@/db?host=/socket/dir; also SCREENMATES_GROUP_STORE.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates notify test" version' -l 'version' -d 'Show the version.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates notify test" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates recover" home' -l 'home' -d 'Data directory (default: $SCREENMATES_HOME, else $XDG_DATA_HOME/screenmates, else ~/.local/share/screenmates).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates recover" group-store' -l 'group-store' -d 'The group store: a SQLite file shared on this host (default: group-store.sqlite in the home), or a PostgreSQL server: postgres://user@host:port/db, or postgres://user@/db?host=/socket/dir; also SCREENMATES_GROUP_STORE.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates recover" version' -l 'version' -d 'Show the version.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates recover" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates export" home' -l 'home' -d 'Data directory (default: $SCREENMATES_HOME, else $XDG_DATA_HOME/screenmates, else ~/.local/share/screenmates).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates export" group-store' -l 'group-store' -d 'The group store: a SQLite file shared on this host (default: group-store.sqlite in the home), or a PostgreSQL server: postgres://user@host:port/db, or postgres://user@/db?host=/socket/dir; also SCREENMATES_GROUP_STORE.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates export" format' -l 'format' -d 'csv or json.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates export" days' -l 'days' -d 'Only the last N finished days (default: all).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates export" output' -l 'output' -d 'Write to this file instead of standard output.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates export" include-hidden' -l 'include-hidden' -d 'Name hidden apps too (by default they show as "(hidden)").'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates export" version' -l 'version' -d 'Show the version.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates export" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates config" version' -l 'version' -d 'Show the version.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates config" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_positional "screenmates config" -eq 1' -fa 'show' -d 'Print every setting and where it comes from.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_positional "screenmates config" -eq 1' -fa 'check' -d 'Check config.toml; exit 1 and name each line it cannot use.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_positional "screenmates config" -eq 1' -fa 'set' -d 'Change one setting, in the database and in config.toml.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates config show" home' -l 'home' -d 'Data directory (default: $SCREENMATES_HOME, else $XDG_DATA_HOME/screenmates, else ~/.local/share/screenmates).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates config show" group-store' -l 'group-store' -d 'The group store: a SQLite file shared on this host (default: group-store.sqlite in the home), or a PostgreSQL server: postgres://user@host:port/db, or postgres://user@/db?host=/socket/dir; also SCREENMATES_GROUP_STORE.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates config show" version' -l 'version' -d 'Show the version.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates config show" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates config check" home' -l 'home' -d 'Data directory (default: $SCREENMATES_HOME, else $XDG_DATA_HOME/screenmates, else ~/.local/share/screenmates).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates config check" group-store' -l 'group-store' -d 'The group store: a SQLite file shared on this host (default: group-store.sqlite in the home), or a PostgreSQL server: postgres://user@host:port/db, or postgres://user@/db?host=/socket/dir; also SCREENMATES_GROUP_STORE.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates config check" version' -l 'version' -d 'Show the version.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates config check" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates config set" home' -l 'home' -d 'Data directory (default: $SCREENMATES_HOME, else $XDG_DATA_HOME/screenmates, else ~/.local/share/screenmates).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates config set" group-store' -l 'group-store' -d 'The group store: a SQLite file shared on this host (default: group-store.sqlite in the home), or a PostgreSQL server: postgres://user@host:port/db, or postgres://user@/db?host=/socket/dir; also SCREENMATES_GROUP_STORE.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates config set" version' -l 'version' -d 'Show the version.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates config set" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates import" version' -l 'version' -d 'Show the version.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates import" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_positional "screenmates import" -eq 1' -fa 'activitywatch' -d 'Bring in past days from ActivityWatch.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates import activitywatch" home' -l 'home' -d 'Data directory (default: $SCREENMATES_HOME, else $XDG_DATA_HOME/screenmates, else ~/.local/share/screenmates).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates import activitywatch" group-store' -l 'group-store' -d 'The group store: a SQLite file shared on this host (default: group-store.sqlite in the home), or a PostgreSQL server: postgres://user@host:port/db, or postgres://user@/db?host=/socket/dir; also SCREENMATES_GROUP_STORE.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates import activitywatch" url' -l 'url' -d 'The ActivityWatch server (default http://127.0.0.1:5600; its testing port is 5666).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates import activitywatch" since' -l 'since' -d 'The first day to import, YYYY-MM-DD (default: when ActivityWatch began watching, at most 10 years ago).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates import activitywatch" host' -l 'host' -d 'Read the buckets of this host (default: this machine, or the only one there).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates import activitywatch" version' -l 'version' -d 'Show the version.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates import activitywatch" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates apps" version' -l 'version' -d 'Show the version.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates apps" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_positional "screenmates apps" -eq 1' -fa 'seen' -d 'List the applications ActivityWatch saw that match none of your apps.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_positional "screenmates apps" -eq 1' -fa 'add' -d 'Add an app to your vice or productive list (moving it from the other).'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates apps seen" home' -l 'home' -d 'Data directory (default: $SCREENMATES_HOME, else $XDG_DATA_HOME/screenmates, else ~/.local/share/screenmates).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates apps seen" group-store' -l 'group-store' -d 'The group store: a SQLite file shared on this host (default: group-store.sqlite in the home), or a PostgreSQL server: postgres://user@host:port/db, or postgres://user@/db?host=/socket/dir; also SCREENMATES_GROUP_STORE.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates apps seen" json' -l 'json' -d 'Print JSON: an array of {name, source, seconds, days, lastSeenAt}.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates apps seen" version' -l 'version' -d 'Show the version.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates apps seen" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates apps add" home' -l 'home' -d 'Data directory (default: $SCREENMATES_HOME, else $XDG_DATA_HOME/screenmates, else ~/.local/share/screenmates).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates apps add" group-store' -l 'group-store' -d 'The group store: a SQLite file shared on this host (default: group-store.sqlite in the home), or a PostgreSQL server: postgres://user@host:port/db, or postgres://user@/db?host=/socket/dir; also SCREENMATES_GROUP_STORE.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates apps add" vice' -l 'vice' -d 'A vice (distracting) app.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates apps add" productive' -l 'productive' -d 'A productive app.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates apps add" version' -l 'version' -d 'Show the version.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates apps add" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge" version' -l 'version' -d 'Show the version.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_positional "screenmates challenge" -eq 1' -fa 'create' -d 'Start a challenge (at the next day start, or now), yours or your group\'s.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_positional "screenmates challenge" -eq 1' -fa 'join' -d 'Join one of your group\'s challenges (until its first day ends).'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_positional "screenmates challenge" -eq 1' -fa 'list' -d 'Your challenges and your group\'s, newest first.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_positional "screenmates challenge" -eq 1' -fa 'show' -d 'One challenge; a group challenge with its participants\' leaderboard.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_positional "screenmates challenge" -eq 1' -fa 'forfeit' -d 'Give a challenge up: it costs its penalty.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge create" home' -l 'home' -d 'Data directory (default: $SCREENMATES_HOME, else $XDG_DATA_HOME/screenmates, else ~/.local/share/screenmates).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge create" group-store' -l 'group-store' -d 'The group store: a SQLite file shared on this host (default: group-store.sqlite in the home), or a PostgreSQL server: postgres://user@host:port/db, or postgres://user@/db?host=/socket/dir; also SCREENMATES_GROUP_STORE.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge create" speed' -l 'speed' -d 'Run the app clock N times faster than real time.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge create" start-at' -l 'start-at' -d 'Start the app clock at this instant (2026-11-21T21:30:00Z, or local 2026-11-21T21:30).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge create" at-most' -l 'at-most' -d 'At most N blocks a day.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge create" quiet' -l 'quiet' -d 'No block between these times (past midnight when the end is earlier).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge create" streak' -l 'streak' -d 'Every day within the daily limit.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge create" app' -l 'app' -d 'One of your apps (by name or id); default: all your vice apps.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge create" days' -l 'days' -d 'How many days (1 to 365).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge create" reward' -l 'reward' -d 'Coins won when it is kept (0 to 10000).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge create" penalty' -l 'penalty' -d 'Coins lost when it is broken or given up (0 to 10000).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge create" now' -l 'now' -d 'Start now (today\'s blocks from now on count) instead of at the next day start.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge create" group' -l 'group' -d 'Share it with your group: every member may join it.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge create" version' -l 'version' -d 'Show the version.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge create" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge join" home' -l 'home' -d 'Data directory (default: $SCREENMATES_HOME, else $XDG_DATA_HOME/screenmates, else ~/.local/share/screenmates).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge join" group-store' -l 'group-store' -d 'The group store: a SQLite file shared on this host (default: group-store.sqlite in the home), or a PostgreSQL server: postgres://user@host:port/db, or postgres://user@/db?host=/socket/dir; also SCREENMATES_GROUP_STORE.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge join" speed' -l 'speed' -d 'Run the app clock N times faster than real time.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge join" start-at' -l 'start-at' -d 'Start the app clock at this instant (2026-11-21T21:30:00Z, or local 2026-11-21T21:30).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge join" version' -l 'version' -d 'Show the version.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge join" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge list" home' -l 'home' -d 'Data directory (default: $SCREENMATES_HOME, else $XDG_DATA_HOME/screenmates, else ~/.local/share/screenmates).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge list" group-store' -l 'group-store' -d 'The group store: a SQLite file shared on this host (default: group-store.sqlite in the home), or a PostgreSQL server: postgres://user@host:port/db, or postgres://user@/db?host=/socket/dir; also SCREENMATES_GROUP_STORE.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge list" speed' -l 'speed' -d 'Run the app clock N times faster than real time.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge list" start-at' -l 'start-at' -d 'Start the app clock at this instant (2026-11-21T21:30:00Z, or local 2026-11-21T21:30).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge list" json' -l 'json' -d 'Print JSON: an array of {id, rule, state, firstDay, lastDay, days, reward, penalty, outcome, decidedAt, group, joined, participants: [{name, state, rank, daysKept, isMe, decidedAt}]}.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge list" version' -l 'version' -d 'Show the version.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge show" home' -l 'home' -d 'Data directory (default: $SCREENMATES_HOME, else $XDG_DATA_HOME/screenmates, else ~/.local/share/screenmates).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge show" group-store' -l 'group-store' -d 'The group store: a SQLite file shared on this host (default: group-store.sqlite in the home), or a PostgreSQL server: postgres://user@host:port/db, or postgres://user@/db?host=/socket/dir; also SCREENMATES_GROUP_STORE.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge show" speed' -l 'speed' -d 'Run the app clock N times faster than real time.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge show" start-at' -l 'start-at' -d 'Start the app clock at this instant (2026-11-21T21:30:00Z, or local 2026-11-21T21:30).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge show" json' -l 'json' -d 'Print JSON.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge show" version' -l 'version' -d 'Show the version.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge show" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge forfeit" home' -l 'home' -d 'Data directory (default: $SCREENMATES_HOME, else $XDG_DATA_HOME/screenmates, else ~/.local/share/screenmates).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge forfeit" group-store' -l 'group-store' -d 'The group store: a SQLite file shared on this host (default: group-store.sqlite in the home), or a PostgreSQL server: postgres://user@host:port/db, or postgres://user@/db?host=/socket/dir; also SCREENMATES_GROUP_STORE.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge forfeit" speed' -l 'speed' -d 'Run the app clock N times faster than real time.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge forfeit" start-at' -l 'start-at' -d 'Start the app clock at this instant (2026-11-21T21:30:00Z, or local 2026-11-21T21:30).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge forfeit" yes' -l 'yes' -d 'Do not ask first.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge forfeit" version' -l 'version' -d 'Show the version.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates challenge forfeit" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates coins" home' -l 'home' -d 'Data directory (default: $SCREENMATES_HOME, else $XDG_DATA_HOME/screenmates, else ~/.local/share/screenmates).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates coins" group-store' -l 'group-store' -d 'The group store: a SQLite file shared on this host (default: group-store.sqlite in the home), or a PostgreSQL server: postgres://user@host:port/db, or postgres://user@/db?host=/socket/dir; also SCREENMATES_GROUP_STORE.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates coins" speed' -l 'speed' -d 'Run the app clock N times faster than real time.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates coins" start-at' -l 'start-at' -d 'Start the app clock at this instant (2026-11-21T21:30:00Z, or local 2026-11-21T21:30).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates coins" json' -l 'json' -d 'Print JSON: {balance, transactions: [{cause, asked, amount, reason, at}]}.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates coins" version' -l 'version' -d 'Show the version.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates coins" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates badges" home' -l 'home' -d 'Data directory (default: $SCREENMATES_HOME, else $XDG_DATA_HOME/screenmates, else ~/.local/share/screenmates).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates badges" group-store' -l 'group-store' -d 'The group store: a SQLite file shared on this host (default: group-store.sqlite in the home), or a PostgreSQL server: postgres://user@host:port/db, or postgres://user@/db?host=/socket/dir; also SCREENMATES_GROUP_STORE.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates badges" speed' -l 'speed' -d 'Run the app clock N times faster than real time.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates badges" start-at' -l 'start-at' -d 'Start the app clock at this instant (2026-11-21T21:30:00Z, or local 2026-11-21T21:30).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates badges" json' -l 'json' -d 'Print JSON: an array of {kind, title, category, difficulty, earned (the day, or null)}.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates badges" version' -l 'version' -d 'Show the version.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates badges" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates ranking" home' -l 'home' -d 'Data directory (default: $SCREENMATES_HOME, else $XDG_DATA_HOME/screenmates, else ~/.local/share/screenmates).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates ranking" group-store' -l 'group-store' -d 'The group store: a SQLite file shared on this host (default: group-store.sqlite in the home), or a PostgreSQL server: postgres://user@host:port/db, or postgres://user@/db?host=/socket/dir; also SCREENMATES_GROUP_STORE.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates ranking" speed' -l 'speed' -d 'Run the app clock N times faster than real time.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates ranking" start-at' -l 'start-at' -d 'Start the app clock at this instant (2026-11-21T21:30:00Z, or local 2026-11-21T21:30).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates ranking" public' -l 'public' -d 'Everyone in the group store who opted in, not only your group.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates ranking" limit' -l 'limit' -d 'How many to show of the public ranking (1 to 1000).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates ranking" json' -l 'json' -d 'Print JSON: {scope, total, myRank, standings: [{rank, name, coins, badges, isMe}], notShared}.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates ranking" version' -l 'version' -d 'Show the version.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates ranking" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates week" home' -l 'home' -d 'Data directory (default: $SCREENMATES_HOME, else $XDG_DATA_HOME/screenmates, else ~/.local/share/screenmates).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates week" group-store' -l 'group-store' -d 'The group store: a SQLite file shared on this host (default: group-store.sqlite in the home), or a PostgreSQL server: postgres://user@host:port/db, or postgres://user@/db?host=/socket/dir; also SCREENMATES_GROUP_STORE.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates week" speed' -l 'speed' -d 'Run the app clock N times faster than real time.' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates week" start-at' -l 'start-at' -d 'Start the app clock at this instant (2026-11-21T21:30:00Z, or local 2026-11-21T21:30).' -rfka ''
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates week" json' -l 'json' -d 'Print JSON: {weekStart, currentWeek, closesOn, keptDayCoins, overDayCoins, missingDays, unsyncedDays, reminder, offline, results: [{week, name, isMe, status, keptDays, overDays, missingDays, coins, rule, settledAt}]}.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates week" version' -l 'version' -d 'Show the version.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates week" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'screenmates' -n '__screenmates_should_offer_completions_for_flags_or_options "screenmates help" version' -l 'version' -d 'Show the version.'
