/*
 * api.c — the SQLite API table of the extension: the one global (sqlite3_api, defined here by
 * SQLITE_EXTENSION_INIT1) through which every file of sqlite/ calls SQLite, and its setting by
 * sqlite3_serde_init.
 *
 * SQLITE_EXTENSION_INIT2 would store the table on every load; connections of several threads
 * load the extension concurrently, so the store is made once, under a lock (later loads read it
 * after taking the same lock: no data race, ThreadSanitizer agrees).  One process, one SQLite
 * library: a second library's table is refused.
 *
 * Calls nothing else in sqlite/; every other file reads sqlite3_api (the bottom of the graph).
 */
#include "serde_sqlite.h"

SQLITE_EXTENSION_INIT1

#include <pthread.h>

bool
sq_api_set(const sqlite3_api_routines *api)
{
	static pthread_mutex_t api_lock = PTHREAD_MUTEX_INITIALIZER;
	bool		same;

	pthread_mutex_lock(&api_lock);
	if (sqlite3_api == NULL)
		SQLITE_EXTENSION_INIT2(api);
	same = sqlite3_api == api;
	pthread_mutex_unlock(&api_lock);
	return same;
}
