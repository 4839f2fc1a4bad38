#!/bin/bash

__screenmates_cursor_index_in_current_word() {
    local remaining="${COMP_LINE}"

    local word
    for word in "${COMP_WORDS[@]::COMP_CWORD}"; do
        remaining="${remaining##*([[:space:]])"${word}"*([[:space:]])}"
    done

    local -ir index="$((COMP_POINT - ${#COMP_LINE} + ${#remaining}))"
    if [[ "${index}" -le 0 ]]; then
        printf 0
    else
        printf %s "${index}"
    fi
}

# positional arguments:
#
# - 1: the current (sub)command's count of positional arguments
#
# required variables:
#
# - repeating_flags: the repeating flags that the current (sub)command can accept
# - non_repeating_flags: the non-repeating flags that the current (sub)command can accept
# - repeating_options: the repeating options that the current (sub)command can accept
# - non_repeating_options: the non-repeating options that the current (sub)command can accept
# - positional_number: value ignored
# - unparsed_words: unparsed words from the current command line
#
# modified variables:
#
# - non_repeating_flags: remove flags for this (sub)command that are already on the command line
# - non_repeating_options: remove options for this (sub)command that are already on the command line
# - positional_number: set to the current positional number
# - unparsed_words: remove all flags, options, and option values for this (sub)command
__screenmates_offer_flags_options() {
    local -ir positional_count="${1}"
    positional_number=0

    local was_flag_option_terminator_seen=false
    local is_parsing_option_value=false

    local -ar unparsed_word_indices=("${!unparsed_words[@]}")
    local -i word_index
    for word_index in "${unparsed_word_indices[@]}"; do
        if "${is_parsing_option_value}"; then
            # This word is an option value:
            # Reset marker for next word iff not currently the last word
            [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]] && is_parsing_option_value=false
            unset "unparsed_words[${word_index}]"
            # Do not process this word as a flag or an option
            continue
        fi

        local word="${unparsed_words["${word_index}"]}"
        if ! "${was_flag_option_terminator_seen}"; then
            case "${word}" in
            --)
                unset "unparsed_words[${word_index}]"
                # by itself -- is a flag/option terminator, but if it is the last word, it is the start of a completion
                if [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]]; then
                    was_flag_option_terminator_seen=true
                fi
                continue
                ;;
            -*)
                # ${word} is a flag or an option
                # If ${word} is an option, mark that the next word to be parsed is an option value
                local option
                for option in "${repeating_options[@]}" "${non_repeating_options[@]}"; do
                    [[ "${word}" = "${option}" ]] && is_parsing_option_value=true && break
                done

                # Remove ${word} from ${non_repeating_flags} or ${non_repeating_options} so it isn't offered again
                local not_found=true
                local -i index
                for index in "${!non_repeating_flags[@]}"; do
                    if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                        unset "non_repeating_flags[${index}]"
                        non_repeating_flags=("${non_repeating_flags[@]}")
                        not_found=false
                        break
                    fi
                done
                if "${not_found}"; then
                    for index in "${!non_repeating_flags[@]}"; do
                        if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                            unset "non_repeating_flags[${index}]"
                            non_repeating_flags=("${non_repeating_flags[@]}")
                            break
                        fi
                    done
                fi
                unset "unparsed_words[${word_index}]"
                continue
                ;;
            esac
        fi

        # ${word} is neither a flag, nor an option, nor an option value
        if [[ "${positional_number}" -lt "${positional_count}" || "${positional_count}" -lt 0 ]]; then
            # ${word} is a positional
            ((positional_number++))
            unset "unparsed_words[${word_index}]"
        else
            if [[ -z "${word}" ]]; then
                # Could be completing a flag, option, or subcommand
                positional_number=-1
            else
                # ${word} is a subcommand or invalid, so stop processing this (sub)command
                positional_number=-2
            fi
            break
        fi
    done

    unparsed_words=("${unparsed_words[@]}")

    if\
        ! "${was_flag_option_terminator_seen}"\
        && ! "${is_parsing_option_value}"\
        && [[ ("${cur}" = -* && "${positional_number}" -ge 0) || "${positional_number}" -eq -1 ]]
    then
        COMPREPLY+=($(compgen -W "${repeating_flags[*]} ${non_repeating_flags[*]} ${repeating_options[*]} ${non_repeating_options[*]}" -- "${cur}"))
    fi
}

__screenmates_add_completions() {
    local completion
    while IFS='' read -r completion; do
        COMPREPLY+=("${completion}")
    done < <(IFS=$'\n' compgen "${@}" -- "${cur}")
}

__screenmates_custom_complete() {
    if [[ -n "${cur}" || -z ${COMP_WORDS[${COMP_CWORD}]} || "${COMP_LINE:${COMP_POINT}:1}" != ' ' ]]; then
        local -ar words=("${COMP_WORDS[@]}")
    else
        local -ar words=("${COMP_WORDS[@]::${COMP_CWORD}}" '' "${COMP_WORDS[@]:${COMP_CWORD}}")
    fi

    "${COMP_WORDS[0]}" "${@}" "${words[@]}"
}

_screenmates() {
    local state
    state="$(shopt -p;shopt -po)"
    trap "${state//$'\n'/;}" RETURN
    shopt -s extglob
    set +o history +o posix

    local -xr SAP_SHELL=bash
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(IFS='.';printf %s "${BASH_VERSINFO[*]}")"
    local -r SAP_SHELL_VERSION

    local -r cur="${2}"
    local -r prev="${3}"

    local -i positional_number
    local -a unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")

    local -a repeating_flags=()
    local -a non_repeating_flags=(--version -h --help)
    local -a repeating_options=()
    local -a non_repeating_options=(--home --group-store)
    __screenmates_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    esac

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    dashboard|setup|status|group|sync|monitor|demo|notify|recover|export|config|import|apps|challenge|coins|prune|badges|ranking|week|restore|account|devices|help)
        # Offer subcommand argument completions
        "_screenmates_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'dashboard setup status group sync monitor demo notify recover export config import apps challenge coins prune badges ranking week restore account devices help' -- "${cur}"))
        ;;
    esac
}

_screenmates_dashboard() {
    repeating_flags=()
    non_repeating_flags=(--demo --no-color --ascii --bell --desktop-notify --version -h --help)
    repeating_options=()
    non_repeating_options=(--home --group-store --speed --start-at --members --seed --scenario --theme)
    __screenmates_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    '--speed')
        return
        ;;
    '--start-at')
        return
        ;;
    '--members')
        return
        ;;
    '--seed')
        return
        ;;
    '--scenario')
        return
        ;;
    '--theme')
        return
        ;;
    esac
}

_screenmates_setup() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=(--vice --productive)
    non_repeating_options=(--home --group-store --speed --start-at --name --day-start-hour --goal)
    __screenmates_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    '--speed')
        return
        ;;
    '--start-at')
        return
        ;;
    '--name')
        return
        ;;
    '--vice')
        return
        ;;
    '--productive')
        return
        ;;
    '--day-start-hour')
        return
        ;;
    '--goal')
        return
        ;;
    esac
}

_screenmates_status() {
    repeating_flags=()
    non_repeating_flags=(--json --demo --version -h --help)
    repeating_options=()
    non_repeating_options=(--home --group-store --speed --start-at)
    __screenmates_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    '--speed')
        return
        ;;
    '--start-at')
        return
        ;;
    esac
}

_screenmates_group() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __screenmates_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    create|join|leave|show|set|prepare-store|claims)
        # Offer subcommand argument completions
        "_screenmates_group_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'create join leave show set prepare-store claims' -- "${cur}"))
        ;;
    esac
}

_screenmates_group_create() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--home --group-store --goal --week-start --kept-day-coins --over-day-coins --missing-days --speed --start-at)
    __screenmates_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    '--goal')
        return
        ;;
    '--week-start')
        return
        ;;
    '--kept-day-coins')
        return
        ;;
    '--over-day-coins')
        return
        ;;
    '--missing-days')
        return
        ;;
    '--speed')
        return
        ;;
    '--start-at')
        return
        ;;
    esac
}

_screenmates_group_join() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--home --group-store --speed --start-at)
    __screenmates_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    '--speed')
        return
        ;;
    '--start-at')
        return
        ;;
    esac
}

_screenmates_group_leave() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--home --group-store)
    __screenmates_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    esac
}

_screenmates_group_show() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--home --group-store)
    __screenmates_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    esac
}

_screenmates_group_set() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--home --group-store --week-start --kept-day-coins --over-day-coins --missing-days --speed --start-at)
    __screenmates_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    '--week-start')
        return
        ;;
    '--kept-day-coins')
        return
        ;;
    '--over-day-coins')
        return
        ;;
    '--missing-days')
        return
        ;;
    '--speed')
        return
        ;;
    '--start-at')
        return
        ;;
    esac
}

_screenmates_group_prepare-store() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--home --group-store)
    __screenmates_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    esac
}

_screenmates_group_claims() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--home --group-store --approve --role --fingerprint)
    __screenmates_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    '--approve')
        return
        ;;
    '--role')
        return
        ;;
    '--fingerprint')
        return
        ;;
    esac
}

_screenmates_sync() {
    repeating_flags=()
    non_repeating_flags=(--watch --version -h --help)
    repeating_options=()
    non_repeating_options=(--home --group-store --speed --start-at)
    __screenmates_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    '--speed')
        return
        ;;
    '--start-at')
        return
        ;;
    esac
}

_screenmates_monitor() {
    repeating_flags=()
    non_repeating_flags=(--quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--home --group-store --speed --start-at --seed --count --rate --scenario --source --url --host)
    __screenmates_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    '--speed')
        return
        ;;
    '--start-at')
        return
        ;;
    '--seed')
        return
        ;;
    '--count')
        return
        ;;
    '--rate')
        return
        ;;
    '--scenario')
        return
        ;;
    '--source')
        return
        ;;
    '--url')
        return
        ;;
    '--host')
        return
        ;;
    esac
}

_screenmates_demo() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--home --group-store --speed --start-at --members --seed)
    __screenmates_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    '--speed')
        return
        ;;
    '--start-at')
        return
        ;;
    '--members')
        return
        ;;
    '--seed')
        return
        ;;
    esac
}

_screenmates_notify() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __screenmates_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    test)
        # Offer subcommand argument completions
        "_screenmates_notify_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'test' -- "${cur}"))
        ;;
    esac
}

_screenmates_notify_test() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--home --group-store --challenge)
    __screenmates_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    '--challenge')
        return
        ;;
    esac
}

_screenmates_recover() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--home --group-store)
    __screenmates_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    esac
}

_screenmates_export() {
    repeating_flags=()
    non_repeating_flags=(--include-hidden --version -h --help)
    repeating_options=()
    non_repeating_options=(--home --group-store --format --days --output)
    __screenmates_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    '--format')
        return
        ;;
    '--days')
        return
        ;;
    '--output')
        return
        ;;
    esac
}

_screenmates_config() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __screenmates_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    show|check|set)
        # Offer subcommand argument completions
        "_screenmates_config_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'show check set' -- "${cur}"))
        ;;
    esac
}

_screenmates_config_show() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--home --group-store)
    __screenmates_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    esac
}

_screenmates_config_check() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--home --group-store)
    __screenmates_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    esac
}

_screenmates_config_set() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--home --group-store)
    __screenmates_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    esac
}

_screenmates_import() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __screenmates_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    activitywatch)
        # Offer subcommand argument completions
        "_screenmates_import_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'activitywatch' -- "${cur}"))
        ;;
    esac
}

_screenmates_import_activitywatch() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--home --group-store --url --host --since)
    __screenmates_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    '--url')
        return
        ;;
    '--host')
        return
        ;;
    '--since')
        return
        ;;
    esac
}

_screenmates_apps() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __screenmates_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    seen|add)
        # Offer subcommand argument completions
        "_screenmates_apps_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'seen add' -- "${cur}"))
        ;;
    esac
}

_screenmates_apps_seen() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--home --group-store)
    __screenmates_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    esac
}

_screenmates_apps_add() {
    repeating_flags=()
    non_repeating_flags=(--vice --productive --version -h --help)
    repeating_options=()
    non_repeating_options=(--home --group-store)
    __screenmates_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    esac
}

_screenmates_challenge() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __screenmates_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    create|publish|join|list|show|when-opened|forfeit)
        # Offer subcommand argument completions
        "_screenmates_challenge_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'create publish join list show when-opened forfeit' -- "${cur}"))
        ;;
    esac
}

_screenmates_challenge_create() {
    repeating_flags=()
    non_repeating_flags=(--streak --now --group --version -h --help)
    repeating_options=()
    non_repeating_options=(--home --group-store --speed --start-at --at-most --quiet --app --days --reward --penalty --when-opened)
    __screenmates_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    '--speed')
        return
        ;;
    '--start-at')
        return
        ;;
    '--at-most')
        return
        ;;
    '--quiet')
        return
        ;;
    '--app')
        return
        ;;
    '--days')
        return
        ;;
    '--reward')
        return
        ;;
    '--penalty')
        return
        ;;
    '--when-opened')
        __screenmates_add_completions -W 'off'$'\n''notice'$'\n''minimize'$'\n''close'
        return
        ;;
    esac
}

_screenmates_challenge_publish() {
    repeating_flags=()
    non_repeating_flags=(--streak --now --version -h --help)
    repeating_options=()
    non_repeating_options=(--home --group-store --speed --start-at --at-most --quiet --app --days --reward --penalty)
    __screenmates_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    '--speed')
        return
        ;;
    '--start-at')
        return
        ;;
    '--at-most')
        return
        ;;
    '--quiet')
        return
        ;;
    '--app')
        return
        ;;
    '--days')
        return
        ;;
    '--reward')
        return
        ;;
    '--penalty')
        return
        ;;
    esac
}

_screenmates_challenge_join() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--home --group-store --speed --start-at --when-opened)
    __screenmates_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    '--speed')
        return
        ;;
    '--start-at')
        return
        ;;
    '--when-opened')
        __screenmates_add_completions -W 'off'$'\n''notice'$'\n''minimize'$'\n''close'
        return
        ;;
    esac
}

_screenmates_challenge_list() {
    repeating_flags=()
    non_repeating_flags=(--json --open-to-all --version -h --help)
    repeating_options=()
    non_repeating_options=(--home --group-store --speed --start-at)
    __screenmates_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    '--speed')
        return
        ;;
    '--start-at')
        return
        ;;
    esac
}

_screenmates_challenge_show() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--home --group-store --speed --start-at)
    __screenmates_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    '--speed')
        return
        ;;
    '--start-at')
        return
        ;;
    esac
}

_screenmates_challenge_when-opened() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--home --group-store --speed --start-at)
    __screenmates_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    '--speed')
        return
        ;;
    '--start-at')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    2)
        __screenmates_add_completions -W 'off'$'\n''notice'$'\n''minimize'$'\n''close'
        return
        ;;
    esac
}

_screenmates_challenge_forfeit() {
    repeating_flags=()
    non_repeating_flags=(--yes --version -h --help)
    repeating_options=()
    non_repeating_options=(--home --group-store --speed --start-at)
    __screenmates_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    '--speed')
        return
        ;;
    '--start-at')
        return
        ;;
    esac
}

_screenmates_coins() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--home --group-store --speed --start-at)
    __screenmates_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    '--speed')
        return
        ;;
    '--start-at')
        return
        ;;
    esac
}

_screenmates_prune() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--home --group-store --keep-days)
    __screenmates_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    '--keep-days')
        return
        ;;
    esac
}

_screenmates_badges() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--home --group-store --speed --start-at)
    __screenmates_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    '--speed')
        return
        ;;
    '--start-at')
        return
        ;;
    esac
}

_screenmates_ranking() {
    repeating_flags=()
    non_repeating_flags=(--public --json --version -h --help)
    repeating_options=()
    non_repeating_options=(--home --group-store --speed --start-at --limit)
    __screenmates_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    '--speed')
        return
        ;;
    '--start-at')
        return
        ;;
    '--limit')
        return
        ;;
    esac
}

_screenmates_week() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--home --group-store --speed --start-at)
    __screenmates_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    '--speed')
        return
        ;;
    '--start-at')
        return
        ;;
    esac
}

_screenmates_restore() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--home --group-store --speed --start-at --identity)
    __screenmates_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    '--speed')
        return
        ;;
    '--start-at')
        return
        ;;
    '--identity')
        return
        ;;
    esac
}

_screenmates_account() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __screenmates_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    delete)
        # Offer subcommand argument completions
        "_screenmates_account_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'delete' -- "${cur}"))
        ;;
    esac
}

_screenmates_account_delete() {
    repeating_flags=()
    non_repeating_flags=(--yes --keep-local --version -h --help)
    repeating_options=()
    non_repeating_options=(--home --group-store)
    __screenmates_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    esac
}

_screenmates_devices() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __screenmates_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    list|rename|remove|add)
        # Offer subcommand argument completions
        "_screenmates_devices_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'list rename remove add' -- "${cur}"))
        ;;
    esac
}

_screenmates_devices_list() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--home --group-store)
    __screenmates_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    esac
}

_screenmates_devices_rename() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--home --group-store)
    __screenmates_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    esac
}

_screenmates_devices_remove() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--home --group-store)
    __screenmates_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    esac
}

_screenmates_devices_add() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--home --group-store)
    __screenmates_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--home')
        return
        ;;
    '--group-store')
        return
        ;;
    esac
}

_screenmates_help() {
    repeating_flags=()
    non_repeating_flags=(--version)
    repeating_options=()
    non_repeating_options=()
    __screenmates_offer_flags_options -1
}

complete -o filenames -F _screenmates screenmates
