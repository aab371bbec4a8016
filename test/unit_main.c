/* unit_main.c — runs every core unit-test group and prints "N passed, N failed". */
#include "unit.h"
#include "serde_core.h"

int unit_passed = 0;
int unit_failed = 0;

#define UNIT_GROUPS(X) X(scalar) X(jtree) X(compile) X(decode) X(lookup) X(events) X(xmlplan) X(xmlread) X(xmlwalk) X(xmldecode) X(xmlfast) X(readonly) X(jwrite) X(descriptor) X(errors) X(defaults) X(decimal) X(xmlhard) X(scale) X(oneof) X(infer) X(formats) X(batch) X(jsonwalk)
#define DECLARE(name) void unit_##name(void);
UNIT_GROUPS(DECLARE)

int
main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--kernel") == 0)
	{
		/* the JSON walker kernel chosen at load time (test/kernels.sh) */
		printf("%s\n", sd_json_kernel());
		return 0;
	}
#define RUN(name) unit_##name();
	UNIT_GROUPS(RUN)
	printf("%d passed, %d failed\n", unit_passed, unit_failed);
	fflush(stdout);
	return unit_failed ? 1 : 0;
}
