/*
 * xml_scan.h — byte scans of XML text for the XML reader (xml_scan.c): pure functions, no
 * reader state.  Core-internal.  (sd_xml_eol, the line-end normalisation, is declared in
 * xml_read.h, where its other users find it.)
 */
#ifndef SERDE_XML_SCAN_H
#define SERDE_XML_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "xml_read.h"

/* Where the root element's start tag begins in s[0..len) (len if never): the prolog. */
size_t		sd_xml_prolog_end(const char *s, size_t len);

/* Line and column (1-based, characters; a UTF-8 BOM takes no column; CR LF is one line end) of
 * byte `to` of doc[0..len), counted forward from byte `from` (<= to), whose position *line and
 * *column hold on entry (byte 0 is 1:1). */
void		sd_xml_count_position(const char *doc, size_t len, size_t from, size_t to,
								  uint32_t *line, uint32_t *column);

/* Every "&#38;" of v[0..n) turned back into '&', in place; the new length. */
size_t		sd_xml_unescape_amp(char *v, size_t n);

/* The offsets of the attribute names written in the start tag at doc[lt..end) into a[0..n)
 * (xmlns ones skipped: libxml2 hands them over as namespaces, so the k-th one found is
 * attribute k); an attribute not found keeps its offset. */
void		sd_xml_attr_offsets(const char *doc, size_t lt, size_t end, sd_xattr *a, int n);

/* The offset of an attribute's name n from its value found in place at doc[at]: back over the
 * opening quote, the '=' and the whitespace around it, then the qualified name as written; -1
 * when the bytes are not so (inline: once per attribute of every start tag). */
static inline int64_t
sd_xml_attr_name_at(const char *doc, size_t at, const sd_xname *n)
{
	const char *s = doc;
	size_t		p = at;
	size_t		qlen = n->local_len + (n->prefix ? n->prefix_len + 1 : 0);

	if (p < 2 || (s[p - 1] != '"' && s[p - 1] != '\''))
		return -1;
	p--;
	while (p > 0 && (s[p - 1] == ' ' || s[p - 1] == '\t' || s[p - 1] == '\n' || s[p - 1] == '\r'))
		p--;
	if (p == 0 || s[p - 1] != '=')
		return -1;
	p--;
	while (p > 0 && (s[p - 1] == ' ' || s[p - 1] == '\t' || s[p - 1] == '\n' || s[p - 1] == '\r'))
		p--;
	/* (the name as written: its first and last bytes, a cheap check of the arithmetic) */
	if (qlen > p || n->local_len == 0 || s[p - 1] != n->local[n->local_len - 1] ||
		s[p - qlen] != (n->prefix ? n->prefix[0] : n->local[0]))
		return -1;
	return (int64_t) (p - qlen);
}

#endif							/* SERDE_XML_SCAN_H */
