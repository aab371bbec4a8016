/*
 * unit.h — the core's tiny unit-test harness.  Each test/unit_<topic>.c defines
 * `void unit_<topic>(void)` made of CHECK()s and lists it in test/unit_main.c; the runner prints
 * one line per failure and ends with "N passed, N failed" (non-zero exit on any failure).
 */
#ifndef SERDE_UNIT_H
#define SERDE_UNIT_H

#include <stdio.h>
#include <string.h>

extern int unit_passed;
extern int unit_failed;

#define CHECK(cond) \
	do { \
		if (cond) unit_passed++; \
		else { unit_failed++; fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); } \
	} while (0)

#define CHECK_STR(got, want) \
	do { \
		const char *g_ = (got), *w_ = (want); \
		if (g_ && w_ && strcmp(g_, w_) == 0) unit_passed++; \
		else { unit_failed++; fprintf(stderr, "FAIL %s:%d: got \"%s\", want \"%s\"\n", \
									  __FILE__, __LINE__, g_ ? g_ : "(null)", w_ ? w_ : "(null)"); } \
	} while (0)

#endif
