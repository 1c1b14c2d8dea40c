#!/bin/bash
# bench/nn.sh — the neural-net maths rows are now part of bench/run.sh's one
# table (same run, same rounds); kept so that old instructions still work.
exec "$(dirname "$0")/run.sh" "$@"
