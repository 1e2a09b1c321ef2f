#!/bin/sh
# An outside player for `kingsbreakfast tournament --bots cmd:examples/draw_agent.sh,...`,
# in plain POSIX shell: it draws whenever drawing is legal (R7), else plays the first legal
# action. It reads one request per line (protocol kingsbreakfast-agent/1, docs/research.md)
# and answers {"id": K, "action": ID} on one line. The request starts with its id and the
# legal action ids, so sed finds them without a JSON parser.
while IFS= read -r line; do
    id=$(printf '%s\n' "$line" | sed -n 's/^{"protocol": "[^"]*", "id": \([0-9]*\),.*/\1/p')
    legal=$(printf '%s\n' "$line" | sed -n 's/^[^[]*"legal": \[\([0-9, ]*\)\].*/\1/p')
    [ -n "$id" ] || continue
    case ", $legal," in
        *", 7,"*) action=7 ;;
        *) action=${legal%%,*} ;;
    esac
    printf '{"id": %s, "action": %s}\n' "$id" "$action"
done
