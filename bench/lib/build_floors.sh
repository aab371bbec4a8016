#!/usr/bin/env bash
# bench/lib/build_floors.sh — builds the floors into OUTDIR; nothing is installed.
#
#   bash bench/lib/build_floors.sh OUTDIR program   # OUTDIR/floor        (bench/floor.cpp)
#   bash bench/lib/build_floors.sh OUTDIR module    # OUTDIR/serde_bench_floor.so (bench/pgfloor:
#                                                   # the simdjson floor and the libxml2 floor)
#
# The one place their compiler flags are written: bench/run builds (and installs the module)
# with it, test/bench_tools.sh builds with it, so what CI checks is what the benchmark runs.
# Both are measuring tools, not the extension: -march=native compiles the On-Demand walk for the
# running CPU (the extension dispatches to the same kernel at run time). Warnings are errors.
set -euo pipefail
out=${1:?usage: build_floors.sh OUTDIR program|module}
what=${2:?usage: build_floors.sh OUTDIR program|module}
bench=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mkdir -p "$out"
case $what in
    program)
        g++ -O2 -march=native -std=c++17 -DNDEBUG -Wall -Wextra -Werror \
            -o "$out/floor" "$bench/floor.cpp" -lsimdjson
        ;;
    module)
        inc=$(pg_config --includedir-server)
        xml_cflags=$(pkg-config --cflags libxml-2.0 2>/dev/null || xml2-config --cflags)
        xml_libs=$(pkg-config --libs libxml-2.0 2>/dev/null || xml2-config --libs)
        gcc -O2 -fPIC -fno-strict-aliasing -fwrapv -Wall -Wextra -Wmissing-prototypes -Werror -I"$inc" \
            -c "$bench/pgfloor/pgfloor.c" -o "$out/pgfloor.o"
        # shellcheck disable=SC2086  # the flags are word lists
        gcc -O2 -fPIC -fno-strict-aliasing -fwrapv -Wall -Wextra -Wmissing-prototypes -Werror -I"$inc" \
            $xml_cflags -c "$bench/pgfloor/pgfloor_xml.c" -o "$out/pgfloor_xml.o"
        g++ -O2 -march=native -std=c++17 -fPIC -fno-exceptions -DSIMDJSON_EXCEPTIONS=0 -DNDEBUG \
            -fvisibility=hidden -Wall -Wextra -Werror -c "$bench/pgfloor/pgfloor_walk.cpp" -o "$out/pgfloor_walk.o"
        # shellcheck disable=SC2086
        gcc -shared -o "$out/serde_bench_floor.so" "$out/pgfloor.o" "$out/pgfloor_xml.o" "$out/pgfloor_walk.o" \
            -lsimdjson $xml_libs -lstdc++
        ;;
    *)
        echo "build_floors.sh: program or module, not $what" >&2
        exit 2
        ;;
esac
