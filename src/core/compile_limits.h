/*
 * compile_limits.h — what one shape tree may make serde compile (docs/reference.md, "Limits"):
 * the compiler (compile.c) and SQLite's descriptors (descriptor.c) refuse more, with SD_E_SIZE,
 * before the work grows with it.
 */
#ifndef SERDE_COMPILE_LIMITS_H
#define SERDE_COMPILE_LIMITS_H

#define SD_MAX_OBJECT_FIELDS 32767	/* fields of one composite: members of one object's table,
									 * indexed by int16 (a union's merged table counted too) */
#define SD_MAX_PLAN_FIELDS 50000	/* fields of all the composites one plan compiles (its
									 * referenced shapes included) */

#endif							/* SERDE_COMPILE_LIMITS_H */
