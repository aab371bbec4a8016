/*
 * xml_messages.h — libxml2's messages for malformed XML in plain words (xml_messages.c).
 */
#ifndef SERDE_XML_MESSAGES_H
#define SERDE_XML_MESSAGES_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The plain words of libxml2's message `msg` (one line, no trailing newline) into out (size
 * bytes, NUL-terminated, cut to fit), with str1, str2 and int1 the fields of libxml2's error
 * (NULL / 0 when unset).  False, out unspecified, when the message is not in the table (the
 * caller then keeps libxml2's words).
 */
bool		sd_xml_plain_message(const char *msg, const char *str1, const char *str2, int int1,
								 char *out, size_t size);

#endif
