# SPDX-License-Identifier: GPL-2.0
# bash completion for tscprobe(8)

_tscprobe()
{
	local cur prev cmd opts
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	cmd=${COMP_WORDS[1]}

	if ((COMP_CWORD == 1)); then
		COMPREPLY=($(compgen -W "info noise cache skew status stop show env diff monitor --version --help" -- "$cur"))
		return
	fi
	case $prev in
	--irqs)
		COMPREPLY=($(compgen -W "off on" -- "$cur"))
		return
		;;
	--clock)
		COMPREPLY=($(compgen -W "lfence rdtscp mfence plain" -- "$cur"))
		return
		;;
	-c|--cpus)
		COMPREPLY=($(compgen -W "$(cat /sys/devices/system/cpu/online 2>/dev/null)" -- "$cur"))
		return
		;;
	--svg)
		COMPREPLY=($(compgen -f -- "$cur"))
		return
		;;
	-d|--duration|--width|--gap|--threshold|--stop-at|--run)
		return
		;;
	esac
	case $cmd in
	info|status)
		opts="--json --help"
		;;
	env)
		opts="--cpus --json --help"
		;;
	noise)
		opts="--cpus --duration --irqs --width --gap --threshold --clock --user --compare --follow --stop-at --trace-stop --json --csv --prom --svg --verbose --quiet --help"
		;;
	cache)
		opts="--cpus --rounds --batch --levels --nodes --user --json --csv --prom --svg --verbose --quiet --help"
		;;
	skew)
		opts="--cpus --samples --repeats --user --json --csv --prom --svg --verbose --quiet --help"
		;;
	stop)
		opts="--help"
		;;
	diff)
		if [[ $cur == -* ]]; then
			opts="--json --help"
		else
			COMPREPLY=($(compgen -f -X '!*.json' -- "$cur"))
			return
		fi
		;;
	monitor)
		opts="--json --run --help"
		;;
	show)
		opts="noise cache skew --json --csv --prom --svg --verbose --help"
		;;
	esac
	COMPREPLY=($(compgen -W "$opts" -- "$cur"))
}
complete -F _tscprobe tscprobe
