/*
 * standalone_main.c — a main() for the fuzz targets without libFuzzer: runs each file named on
 * the command line once through LLVMFuzzerTestOneInput.  For replaying inputs with another
 * compiler (gcc, with the objects of a plain `make`) or under valgrind:
 *   gcc -std=gnu11 -g -Isrc/core -Itest -o /tmp/replay test/fuzz/standalone_main.c
 *       test/fuzz/fuzz_json.c test/fuzz/fuzz_common.c test/unit_support.c src/core/STAR.o
 *       -lsimdjson -lstdc++ -lm
 *   /tmp/replay test/fuzz/regressions/fuzz_json/FILE
 * (STAR: every object file in src/core.)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int			LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

int
main(int argc, char **argv)
{
	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++)
	{
		FILE	   *f = fopen(argv[i], "rb");
		uint8_t    *buf;
		long		n;

		if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0)
		{
			perror(argv[i]);
			return 2;
		}
		buf = malloc((size_t) n + 1);
		if (!buf || fread(buf, 1, (size_t) n, f) != (size_t) n)
		{
			perror(argv[i]);
			return 2;
		}
		fclose(f);
		printf("running %s (%ld bytes)\n", argv[i], n);
		fflush(stdout);
		LLVMFuzzerTestOneInput(buf, (size_t) n);
		free(buf);
	}
	printf("%d input(s): ok\n", argc - 1);
	return 0;
}
