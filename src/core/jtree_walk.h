/*
 * jtree_walk.h — a walker (walker.h) over a parsed JSON tree (jtree.c's sd_jnode): the input of
 * the rule engine when a field's `default` is compiled (defaults.c).  See jtree_walk.c.
 */
#ifndef SERDE_JTREE_WALK_H
#define SERDE_JTREE_WALK_H

#include "walker.h"

typedef struct sd_jtree_frame
{
	const sd_jnode *node;       /* the array or object being read */
	int			i;              /* its next item */
} sd_jtree_frame;

typedef struct sd_jtree_cursor
{
	sd_wcursor	head;           /* first: the engine's view */
	const sd_jnode *at;         /* the value at the cursor */
	sd_jtree_frame *frames;     /* the containers begun, innermost last (grown through hooks) */
	uint32_t	nframes;
	uint32_t	cap;
	const sd_hooks *hooks;
} sd_jtree_cursor;

/* The cursor at root (not copied: the tree must outlive the walk). */
void		sd_jtree_walk_open(sd_jtree_cursor *c, const sd_jnode *root, const sd_hooks *hooks);
/* Frees the cursor's frames. */
void		sd_jtree_walk_close(sd_jtree_cursor *c);

#endif							/* SERDE_JTREE_WALK_H */
