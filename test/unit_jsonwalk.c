/*
 * unit_jsonwalk.c — the JSON text walker over simdjson's stage-1 index (src/core/json_walk.cpp):
 * every fast path and its fallback, valid and malformed, with the results and error messages
 * the On-Demand walker before it gave (the expected texts were taken from the build of
 * 79081dc, before the rewrite).  The member step (the predicted key compared in place, a key
 * read in place, a key with escapes unescaped, duplicate and unicode keys), the value's token
 * (every first byte; strings in place or unescaped; numbers and literals, also followed by
 * blanks), containers begun and walked, skipped by the engine's recovery (peeked, not walked),
 * skipped whole (skip_fast: unknown members) or with their events (skip_events: jsonb), kept as
 * text (capture: json), the union's tag found ahead (object_find), the end of the root (finish),
 * and a batch's array parsed whole (each_open / each_next); deep nesting and huge numbers;
 * unknown members rejected by the key filter or passing it, passed over inside the walker
 * (SD_KEY_SKIP) or not (containers, errors, `unknown: reject`, `extra`): expected texts
 * taken from the build of 66968fc, before both.
 *
 * UT_JSONWALK_PRINT=1 ./test/unit_runner prints the table's actual texts (to re-take them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serde_core.h"
#include "unit.h"
#include "unit_support.h"

/* s with ' as " (documents and options are written with ') */
static char *
q(const char *s)
{
	size_t		n = strlen(s);
	char	   *o = malloc(n + 1);

	for (size_t i = 0; i <= n; i++)
		o[i] = s[i] == '\'' ? '"' : s[i];
	return o;
}

typedef struct jw_case
{
	int			line;
	char		target;         /* 'W' the composite, 'U' the union, 'I' an int4, 'L' an int4[],
								 * 'R' the composite rejecting unknown members, 'X' with
								 * `extra` (column k) */
	char		mode;           /* 'd' decode, 'c' serde_errors' check */
	const char *doc;            /* ' for " */
	const char *want;
} jw_case;

#define C(t, m, d, w) {__LINE__, t, m, d, w}

static const jw_case cases[] = {
	/* the member step: predicted keys (the second document of a plan is predicted), keys out of
	 * order, unknown keys, escaped keys, unicode keys, duplicates */
	C('W', 'd', "{'a':'x','n':1,'b':true,'o':{'x':'y'},'l':[1,2],'j':{'q':[1,{'r':null}]},'k':[true,false],'f':1.5,'m':-2e3}", "{a:'x',n:1,b:true,o:{x:'y'},l:[1,2],j:J{\"q\":[1,{\"r\":null}]},k:J[true,false],f:1.5,m:N-2000} || ok"),
	C('W', 'd', "{'a':'x','n':1,'b':true,'o':{'x':'y'},'l':[1,2],'j':{'q':[1,{'r':null}]},'k':[true,false],'f':1.5,'m':-2e3}", "{a:'x',n:1,b:true,o:{x:'y'},l:[1,2],j:J{\"q\":[1,{\"r\":null}]},k:J[true,false],f:1.5,m:N-2000} || ok"),
	C('W', 'd', "{'m':7,'k':{},'j':[],'l':[],'o':{},'b':false,'n':-0,'a':''}", "{a:'',n:0,b:false,o:{x:null},l:[],j:J[],k:J{},f:null,m:N7} || ok"),
	C('W', 'd', " {\n\t'a' : 'x' ,\r\n 'n' :\t12 ,\n 'b' : null , 'f' : 2 , 'm' : 0.5e-3 , 'k' : [ 1 , 'z' ] , 'j' : { 'p' : [ ] , 'q' : { } } } \n", "{a:'x',n:12,b:null,o:null,l:null,j:J{ \"p\" : [ ] , \"q\" : { } },k:J[ 1 , \"z\" ],f:2,m:N0.0005} || ok"),
	C('W', 'd', "{'\\u0061':'x','\\u006e':3}", "{a:'x',n:3,b:null,o:null,l:null,j:null,k:null,f:null,m:null} || ok"),
	C('W', 'd', "{'a\\n':1,'a':'y','\\ud83d\\ude00':2,'n':4}", "{a:'y',n:4,b:null,o:null,l:null,j:null,k:null,f:null,m:null} || ok"),
	C('W', 'd', "{'\xc3\xa9':1,'a':'\xc3\xbc\xe2\x82\xac','n':5}", "{a:'\303\274\342\202\254',n:5,b:null,o:null,l:null,j:null,k:null,f:null,m:null} || ok"),
	C('W', 'd', "{'a':'x','a':'y'}", "ERROR 22030 $.a: duplicate member @9 || ERROR 22030 $.a: duplicate member @9"),
	C('W', 'c', "{'a':'x','n':'y','a':'z'}", "ERROR 22032 $.n: expected integer, found string \"y\" @13 | ERROR 22030 $.a: duplicate member @17 || ERROR 22032 $.n: expected integer, found string \"y\" @13"),
	C('W', 'd', "{'ab':1,'abc':2,'abcdefgh':3,'abcdefghi':4,'a':'k'}", "{a:'k',n:null,b:null,o:null,l:null,j:null,k:null,f:null,m:null} || ok"),
	C('W', 'd', "{'zz':{'q':[1,2,{'r':'s\\t'}],'e':{}},'zy':[[],[[]],{}],'a':'x'}", "{a:'x',n:null,b:null,o:null,l:null,j:null,k:null,f:null,m:null} || ok"),
	C('W', 'd', "{'zz':'a\\\\b\\'c\\/d\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00','a':'x'}", "{a:'x',n:null,b:null,o:null,l:null,j:null,k:null,f:null,m:null} || ok"),
	/* keys not predicted, read by their extent in the index (blanks before the ':'), hashed
	 * with the escape check (a backslash at each byte of an 8-byte word: the slow way) */
	C('W', 'd', "{'zz'  :1,'a' \t\n:'x','n'\r :2,'abcdefgh':3,'abcdefghijklmnop' :4}", "{a:'x',n:2,b:null,o:null,l:null,j:null,k:null,f:null,m:null} || ok"),
	C('W', 'd', "{'':1,'a':'x','' :2}", "{a:'x',n:null,b:null,o:null,l:null,j:null,k:null,f:null,m:null} || ok"),
	C('W', 'd', "{'abcdefg\\\\':1,'abcdefgh\\\\':2,'abcdefghijklmno\\\\':3,'abcdefghijklmnop\\'':4,'a':'x'}", "{a:'x',n:null,b:null,o:null,l:null,j:null,k:null,f:null,m:null} || ok"),
	C('W', 'd', "{'\\\\':1,'a\\\\b':2,'\\'':3,'\\/' :4,'n':5}", "{a:null,n:5,b:null,o:null,l:null,j:null,k:null,f:null,m:null} || ok"),
	C('W', 'd', "{'\\u0061' :'x','\\'' : 1,'\\u006e':6}", "{a:'x',n:6,b:null,o:null,l:null,j:null,k:null,f:null,m:null} || ok"),
	C('W', 'd', "{'\xc3\xa9' :1,'\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac':2,'a':'x'}", "{a:'x',n:null,b:null,o:null,l:null,j:null,k:null,f:null,m:null} || ok"),
	C('W', 'c', "{'zz' :1,'a' : 2,'zz' :3}", "ERROR 22032 $.a: expected string, found number 2 @15 || ERROR 22032 $.a: expected string, found number 2 @15"),
	C('W', 'd', "{'n':1,'a' :'x','n' :2}", "ERROR 22030 $.n: duplicate member @16 || ERROR 22030 $.n: duplicate member @16"),
	C('W', 'c', "{'n':1,'zz':0,'\\u006e' :2,'a':'x','a'\n:'y'}", "ERROR 22030 $.n: duplicate member @14 | ERROR 22030 $.a: duplicate member @34 || ERROR 22030 $.n: duplicate member @14"),
	/* unknown members: names no member has rejected by the table's key filter (length, first
	 * and last byte: 'zz', 'q', 'x'), names that pass it and are no member ('A', 'N', 'B': the
	 * bits of 'a', 'n', 'b'); ignored ones with a scalar value passed over inside the walker (up
	 * to 63 in a row), the others (containers, a value error, 'reject', 'extra') as before */
	C('W', 'd', "{'zz':1,'A':'s','q':true,'N':null,'a':'x','x':-1.5e2,'B':false,'n':2,'zzz':'a\\nb'}", "{a:'x',n:2,b:null,o:null,l:null,j:null,k:null,f:null,m:null} || ok"),
	C('W', 'c', "{'zz':1,'A':'s','q':true,'N':null,'a':'x','x':-1.5e2,'B':false,'n':2,'zzz':'a\\nb'}", "ok || {a:'x',n:2,b:null,o:null,l:null,j:null,k:null,f:null,m:null}"),
	C('W', 'd', "{'zz':1,'q':[1,{'x':2}],'x':{'y':'z'},'a':'x','e':'\\u00e9','A':{}}", "{a:'x',n:null,b:null,o:null,l:null,j:null,k:null,f:null,m:null} || ok"),
	C('W', 'd', "{'u0':1,'u1':'s','u2':true,'u3':null,'u4':-2.5e3,'u5':'e\\n','u6':false,'u7':1,'u8':'s','u9':true,'u10':null,'u11':-2.5e3,'u12':'e\\n','u13':false,'u14':1,'u15':'s','u16':true,'u17':null,'u18':-2.5e3,'u19':'e\\n','u20':false,'u21':1,'u22':'s','u23':true,'u24':null,'u25':-2.5e3,'u26':'e\\n','u27':false,'u28':1,'u29':'s','u30':true,'u31':null,'u32':-2.5e3,'u33':'e\\n','u34':false,'u35':1,'u36':'s','u37':true,'u38':null,'u39':-2.5e3,'u40':'e\\n','u41':false,'u42':1,'u43':'s','u44':true,'u45':null,'u46':-2.5e3,'u47':'e\\n','u48':false,'u49':1,'u50':'s','u51':true,'u52':null,'u53':-2.5e3,'u54':'e\\n','u55':false,'u56':1,'u57':'s','u58':true,'u59':null,'u60':-2.5e3,'u61':'e\\n','u62':false,'u63':1,'u64':'s','u65':true,'u66':null,'u67':-2.5e3,'u68':'e\\n','u69':false,'a':'x','n':3}", "{a:'x',n:3,b:null,o:null,l:null,j:null,k:null,f:null,m:null} || ok"),
	C('W', 'd', "{'u0':0,'u1':1,'u2':2,'u3':3,'u4':4,'u5':5,'u6':6,'u7':7,'u8':8,'u9':9,'u10':10,'u11':11,'u12':12,'u13':13,'u14':14,'u15':15,'u16':16,'u17':17,'u18':18,'u19':19,'u20':20,'u21':21,'u22':22,'u23':23,'u24':24,'u25':25,'u26':26,'u27':27,'u28':28,'u29':29,'u30':30,'u31':31,'u32':32,'u33':33,'u34':34,'u35':35,'u36':36,'u37':37,'u38':38,'u39':39,'u40':40,'u41':41,'u42':42,'u43':43,'u44':44,'u45':45,'u46':46,'u47':47,'u48':48,'u49':49,'u50':50,'u51':51,'u52':52,'u53':53,'u54':54,'u55':55,'u56':56,'u57':57,'u58':58,'u59':59,'u60':60,'u61':61,'u62':62,'zz':tru,'a':'x'}", "ERROR 22P02 $: malformed JSON: invalid literal @553 || ERROR 22P02 $: malformed JSON: invalid literal @553"),
	C('W', 'd', "{'u0':0,'u1':1,'u2':2,'u3':3,'u4':4,'u5':5,'u6':6,'u7':7,'u8':8,'u9':9,'u10':10,'u11':11,'u12':12,'u13':13,'u14':14,'u15':15,'u16':16,'u17':17,'u18':18,'u19':19,'u20':20,'u21':21,'u22':22,'u23':23,'u24':24,'u25':25,'u26':26,'u27':27,'u28':28,'u29':29,'u30':30,'u31':31,'u32':32,'u33':33,'u34':34,'u35':35,'u36':36,'u37':37,'u38':38,'u39':39,'u40':40,'u41':41,'u42':42,'u43':43,'u44':44,'u45':45,'u46':46,'u47':47,'u48':48,'u49':49,'u50':50,'u51':51,'u52':52,'u53':53,'u54':54,'u55':55,'u56':56,'u57':57,'u58':58,'u59':59,'u60':60,'u61':61,'u62':62,'q':1,'zz':1x,'a':'x'}", "ERROR 22P02 $: malformed JSON: expected ',' or '}' @560 || ERROR 22P02 $: malformed JSON: expected ',' or '}' @560"),
	C('W', 'c', "{'u0':0,'u1':1,'u2':2,'u3':3,'u4':4,'u5':5,'u6':6,'u7':7,'u8':8,'u9':9,'u10':10,'u11':11,'u12':12,'u13':13,'u14':14,'u15':15,'u16':16,'u17':17,'u18':18,'u19':19,'u20':20,'u21':21,'u22':22,'u23':23,'u24':24,'u25':25,'u26':26,'u27':27,'u28':28,'u29':29,'u30':30,'u31':31,'u32':32,'u33':33,'u34':34,'u35':35,'u36':36,'u37':37,'u38':38,'u39':39,'u40':40,'u41':41,'u42':42,'u43':43,'u44':44,'u45':45,'u46':46,'u47':47,'u48':48,'u49':49,'u50':50,'u51':51,'u52':52,'u53':53,'u54':54,'u55':55,'u56':56,'u57':57,'u58':58,'u59':59,'u60':60,'u61':61,'u62':62,'q':1,'zz':'\\q','a':'x'}", "ERROR 22P02 $: malformed JSON: bad escape in a string @560 || ERROR 22P02 $: malformed JSON: bad escape in a string @560"),
	C('W', 'd', "{'zz':1,'q':nul,'a':'x'}", "ERROR 22P02 $: malformed JSON: invalid literal @12 || ERROR 22P02 $: malformed JSON: invalid literal @12"),
	C('W', 'd', "{'zz':1,'q':2 'a':'x'}", "ERROR 22P02 $: malformed JSON: expected ',' or '}' @14 || ERROR 22P02 $: malformed JSON: expected ',' or '}' @14"),
	C('W', 'd', "{'zz':1,'q':2,}", "ERROR 22P02 $: malformed JSON: expected a member name @14 || ERROR 22P02 $: malformed JSON: expected a member name @14"),
	C('W', 'd', "{'zz':1,'q':2", "ERROR 22P02 $: malformed JSON: unexpected end of input @13 || ERROR 22P02 $: malformed JSON: unexpected end of input @13"),
	C('W', 'd', "{'zz':1,'q':'a", "ERROR 22P02 $: malformed JSON: unterminated string @14 || ERROR 22P02 $: malformed JSON: unterminated string @14"),
	C('W', 'd', "{'zz':1,'q':2}", "{a:null,n:null,b:null,o:null,l:null,j:null,k:null,f:null,m:null} || ok"),
	C('W', 'd', "{'a':'x','zz':1,'q':'w','a':'y'}", "ERROR 22030 $.a: duplicate member @24 || ERROR 22030 $.a: duplicate member @24"),
	C('W', 'c', "{'a':1,'zz':1,'q':'w','n':'y','x':-0,'n':3}", "ERROR 22032 $.a: expected string, found number 1 @5 | ERROR 22032 $.n: expected integer, found string \"y\" @26 | ERROR 22030 $.n: duplicate member @37 || ERROR 22032 $.a: expected string, found number 1 @5"),
	C('W', 'd', "{'o':{'zz':1,'x':'y','q':2},'zz':3}", "{a:null,n:null,b:null,o:{x:'y'},l:null,j:null,k:null,f:null,m:null} || ok"),
	C('W', 'd', "{'zz':123456789012345678901234567890,'q':1e400,'x':-0.0e-0,'a':'x'}", "{a:'x',n:null,b:null,o:null,l:null,j:null,k:null,f:null,m:null} || ok"),
	C('W', 'd', "{'z\\u007a':1,'\\u0041':2,'\\u0061':'x'}", "{a:'x',n:null,b:null,o:null,l:null,j:null,k:null,f:null,m:null} || ok"),
	C('U', 'd', "{'zz':1,'q':'w','kind':'o','x':'y','zzz':null}", "{kind:'o',v1:{x:'y'},v2:null} || ok"),
	C('U', 'd', "{'zz':1,'q':'w','kind':'k','y':3,'x':'y'}", "{kind:'k',v1:null,v2:{y:3}} || ok"),
	C('R', 'd', "{'a':'x','zz':1,'n':2}", "ERROR 2203E $.zz: unknown member @9 || ERROR 2203E $.zz: unknown member @9"),
	C('R', 'c', "{'a':'x','zz':1,'A':'s','q':[1],'n':2}", "ERROR 2203E $.zz: unknown member @9 | ERROR 2203E $.A: unknown member @16 | ERROR 2203E $.q: unknown member @24 || ERROR 2203E $.zz: unknown member @9"),
	C('R', 'd', "{'a':'x','n':2}", "{a:'x',n:2,b:null,o:null,l:null,j:null,k:null,f:null,m:null} || ok"),
	C('X', 'd', "{'a':'x','zz':1,'A':'s','q':[1],'n':2,'x':'\\u00e9'}", "{a:'x',n:2,b:null,o:null,l:null,j:null,k:J{\"zz\":1,\"A\":\"s\",\"q\":[1],\"x\":\"\\u00e9\"},f:null,m:null} || ok"),
	C('X', 'c', "{'zz':1,'a':'x','q':tru}", "ERROR 22P02 $: malformed JSON: invalid literal @20 || ERROR 22P02 $: malformed JSON: invalid literal @20"),
	/* string values: in place, unescaped, long, empty */
	C('W', 'd', "{'a':'x\\ny\\u00e9\\ud83d\\ude00\\\\'}", "{a:'x\012y\303\251\360\237\230\200\\',n:null,b:null,o:null,l:null,j:null,k:null,f:null,m:null} || ok"),
	C('W', 'd', "{'a':'0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789'}", "{a:'0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789',n:null,b:null,o:null,l:null,j:null,k:null,f:null,m:null} || ok"),
	C('W', 'd', "{'a':'0123456789abcdef0123456789abcdef\\u0041123456789abcdef0123456789abcdef'}", "{a:'0123456789abcdef0123456789abcdefA123456789abcdef0123456789abcdef',n:null,b:null,o:null,l:null,j:null,k:null,f:null,m:null} || ok"),
	C('W', 'd', "{'k':'a\\u0000b','j':'c'}", "{a:null,n:null,b:null,o:null,l:null,j:J\"c\",k:J\"a\\u0000b\",f:null,m:null} || ok"),
	C('W', 'd', "{'j':{'k':'a\\u0000b'}}", "ERROR 22032 $.j.k: \\u0000 cannot be stored in jsonb @10 || ERROR 22032 $.j.k: \\u0000 cannot be stored in jsonb @10"),
	C('W', 'd', "{'j':['\\u0000']}", "ERROR 22032 $.j[0]: \\u0000 cannot be stored in jsonb @6 || ERROR 22032 $.j[0]: \\u0000 cannot be stored in jsonb @6"),
	/* numbers: huge, exponents, in jsonb, in unknown members */
	C('W', 'd', "{'n':123456789012345678901234567890}", "ERROR 22003 $.n: value 123456789012345678901234567890 out of range for integer @5 || ERROR 22003 $.n: value 123456789012345678901234567890 out of range for integer @5"),
	C('W', 'd', "{'m':123456789012345678901234567890.25,'f':1e308}", "{a:null,n:null,b:null,o:null,l:null,j:null,k:null,f:1e+308,m:N123456789012345678901234567890.25} || ok"),
	C('W', 'd', "{'f':1e400}", "ERROR 22003 $.f: value 1e400 out of range for double precision @5 || ERROR 22003 $.f: value 1e400 out of range for double precision @5"),
	C('W', 'd', "{'j':[1e400]}", "{a:null,n:null,b:null,o:null,l:null,j:J[1e400],k:null,f:null,m:null} || ok"),
	C('W', 'd', "{'j':{'a':1e-400}}", "{a:null,n:null,b:null,o:null,l:null,j:J{\"a\":1e-400},k:null,f:null,m:null} || ok"),
	C('W', 'd', "{'zz':1e999999,'zy':[123456789012345678901234567890],'a':'x'}", "{a:'x',n:null,b:null,o:null,l:null,j:null,k:null,f:null,m:null} || ok"),
	C('W', 'd', "{'k':[1e999999 , 2 ]}", "{a:null,n:null,b:null,o:null,l:null,j:null,k:J[1e999999 , 2 ],f:null,m:null} || ok"),
	/* literals */
	C('W', 'd', "{'b':true }", "{a:null,n:null,b:true,o:null,l:null,j:null,k:null,f:null,m:null} || ok"),
	C('W', 'd', "{'b':tru}", "ERROR 22P02 $: malformed JSON: invalid literal @5 || ERROR 22P02 $: malformed JSON: invalid literal @5"),
	C('W', 'd', "{'b':truex}", "ERROR 22P02 $: malformed JSON: expected ',' or '}' @9 || ERROR 22P02 $: malformed JSON: expected ',' or '}' @9"),
	C('W', 'd', "{'b':nul}", "ERROR 22P02 $: malformed JSON: invalid literal @5 || ERROR 22P02 $: malformed JSON: invalid literal @5"),
	C('W', 'd', "{'b':falsey}", "ERROR 22P02 $: malformed JSON: expected ',' or '}' @10 || ERROR 22P02 $: malformed JSON: expected ',' or '}' @10"),
	C('W', 'd', "{'zz':[tru],'a':'x'}", "ERROR 22P02 $: malformed JSON: invalid literal @7 || ERROR 22P02 $: malformed JSON: invalid literal @7"),
	C('W', 'd', "{'j':[nulll]}", "ERROR 22P02 $: malformed JSON: expected ',' or ']' @10 || ERROR 22P02 $: malformed JSON: expected ',' or ']' @10"),
	C('W', 'd', "{'k':[True]}", "ERROR 22P02 $: malformed JSON: unexpected character @6 || ERROR 22P02 $: malformed JSON: unexpected character @6"),
	/* numbers malformed */
	C('W', 'd', "{'n':01}", "ERROR 22P02 $: malformed JSON: invalid number @5 || ERROR 22P02 $: malformed JSON: invalid number @5"),
	C('W', 'd', "{'n':1.}", "ERROR 22P02 $: malformed JSON: invalid number @5 || ERROR 22P02 $: malformed JSON: invalid number @5"),
	C('W', 'd', "{'n':-}", "ERROR 22P02 $: malformed JSON: invalid number @5 || ERROR 22P02 $: malformed JSON: invalid number @5"),
	C('W', 'd', "{'n':1e}", "ERROR 22P02 $: malformed JSON: invalid number @5 || ERROR 22P02 $: malformed JSON: invalid number @5"),
	C('W', 'd', "{'n':+1}", "ERROR 22P02 $: malformed JSON: unexpected character @5 || ERROR 22P02 $: malformed JSON: unexpected character @5"),
	C('W', 'd', "{'n':1x}", "ERROR 22P02 $: malformed JSON: expected ',' or '}' @6 || ERROR 22P02 $: malformed JSON: expected ',' or '}' @6"),
	C('W', 'd', "{'zz':[1.e5],'a':'x'}", "ERROR 22P02 $: malformed JSON: invalid number @7 || ERROR 22P02 $: malformed JSON: invalid number @7"),
	C('W', 'd', "{'j':{'a':-01}}", "ERROR 22P02 $: malformed JSON: invalid number @10 || ERROR 22P02 $: malformed JSON: invalid number @10"),
	/* grammar: where a member, a colon, a value, a comma should be */
	C('W', 'd', "{'a':'x'", "ERROR 22P02 $: malformed JSON: unexpected end of input @8 || ERROR 22P02 $: malformed JSON: unexpected end of input @8"),
	C('W', 'd', "{'a':'x',", "ERROR 22P02 $: malformed JSON: unexpected end of input @9 || ERROR 22P02 $: malformed JSON: unexpected end of input @9"),
	C('W', 'd', "{'a':", "ERROR 22P02 $: malformed JSON: unexpected end of input @5 || ERROR 22P02 $: malformed JSON: unexpected end of input @5"),
	C('W', 'd', "{'a'", "ERROR 22P02 $: malformed JSON: expected ':' @4 || ERROR 22P02 $: malformed JSON: expected ':' @4"),
	C('W', 'd', "{", "ERROR 22P02 $: malformed JSON: unexpected end of input @1 || ERROR 22P02 $: malformed JSON: unexpected end of input @1"),
	C('W', 'd', "{'a':'x',}", "ERROR 22P02 $: malformed JSON: expected a member name @9 || ERROR 22P02 $: malformed JSON: expected a member name @9"),
	C('W', 'd', "{,}", "ERROR 22P02 $: malformed JSON: expected a member name @1 || ERROR 22P02 $: malformed JSON: expected a member name @1"),
	C('W', 'd', "{,'a':'x'}", "ERROR 22P02 $: malformed JSON: expected a member name @1 || ERROR 22P02 $: malformed JSON: expected a member name @1"),
	C('W', 'd', "{'a' 'x'}", "ERROR 22P02 $: malformed JSON: expected ':' @5 || ERROR 22P02 $: malformed JSON: expected ':' @5"),
	C('W', 'd', "{'a':}", "ERROR 22P02 $: malformed JSON: unexpected character @5 || ERROR 22P02 $: malformed JSON: unexpected character @5"),
	C('W', 'd', "{'a'::'x'}", "ERROR 22P02 $: malformed JSON: unexpected character @5 || ERROR 22P02 $: malformed JSON: unexpected character @5"),
	C('W', 'd', "{'a':'x' 'n':1}", "ERROR 22P02 $: malformed JSON: expected ',' or '}' @9 || ERROR 22P02 $: malformed JSON: expected ',' or '}' @9"),
	C('W', 'd', "{'a':'x',,'n':1}", "ERROR 22P02 $: malformed JSON: expected a member name @9 || ERROR 22P02 $: malformed JSON: expected a member name @9"),
	C('W', 'd', "{'a':'x']", "ERROR 22P02 $: malformed JSON: expected ',' or '}' @8 || ERROR 22P02 $: malformed JSON: expected ',' or '}' @8"),
	C('W', 'd', "{1:'x'}", "ERROR 22P02 $: malformed JSON: expected a member name @1 || ERROR 22P02 $: malformed JSON: expected a member name @1"),
	C('W', 'd', "{a:'x'}", "ERROR 22P02 $: malformed JSON: expected a member name @1 || ERROR 22P02 $: malformed JSON: expected a member name @1"),
	C('W', 'd', "{'a':'x'}}", "ERROR 22P02 $: malformed JSON: unexpected data after the root value @9 || ERROR 22P02 $: malformed JSON: unexpected data after the root value @9"),
	C('W', 'd', "{'a':'x'} x", "ERROR 22P02 $: malformed JSON: unexpected data after the root value @10 || ERROR 22P02 $: malformed JSON: unexpected data after the root value @10"),
	C('W', 'd', "{'a':'x'}{'a':'y'}", "ERROR 22P02 $: malformed JSON: unexpected data after the root value @9 || ERROR 22P02 $: malformed JSON: unexpected data after the root value @9"),
	C('W', 'd', "{'a':'x'} ,", "ERROR 22P02 $: malformed JSON: unexpected data after the root value @10 || ERROR 22P02 $: malformed JSON: unexpected data after the root value @10"),
	C('W', 'd', "{'l':[1,]}", "ERROR 22P02 $: malformed JSON: unexpected character @8 || ERROR 22P02 $: malformed JSON: unexpected character @8"),
	C('W', 'd', "{'l':[,1]}", "ERROR 22P02 $: malformed JSON: unexpected character @6 || ERROR 22P02 $: malformed JSON: unexpected character @6"),
	C('W', 'd', "{'l':[1,,2]}", "ERROR 22P02 $: malformed JSON: unexpected character @8 || ERROR 22P02 $: malformed JSON: unexpected character @8"),
	C('W', 'd', "{'l':[1 2]}", "ERROR 22P02 $: malformed JSON: expected ',' or ']' @8 || ERROR 22P02 $: malformed JSON: expected ',' or ']' @8"),
	C('W', 'd', "{'l':[1:2]}", "ERROR 22P02 $: malformed JSON: expected ',' or ']' @7 || ERROR 22P02 $: malformed JSON: expected ',' or ']' @7"),
	C('W', 'd', "{'l':[1}", "ERROR 22P02 $: malformed JSON: expected ',' or ']' @7 || ERROR 22P02 $: malformed JSON: expected ',' or ']' @7"),
	C('W', 'd', "{'l':[1", "ERROR 22P02 $: malformed JSON: unexpected end of input @7 || ERROR 22P02 $: malformed JSON: unexpected end of input @7"),
	C('W', 'd', "{'l':[", "ERROR 22P02 $: malformed JSON: unexpected end of input @6 || ERROR 22P02 $: malformed JSON: unexpected end of input @6"),
	C('W', 'd', "{'o':{'x':'y',}}", "ERROR 22P02 $: malformed JSON: expected a member name @14 || ERROR 22P02 $: malformed JSON: expected a member name @14"),
	C('W', 'd', "{'o':{'x' 'y'}}", "ERROR 22P02 $: malformed JSON: expected ':' @10 || ERROR 22P02 $: malformed JSON: expected ':' @10"),
	C('W', 'd', "{'o':{'x':'y']}", "ERROR 22P02 $: malformed JSON: expected ',' or '}' @13 || ERROR 22P02 $: malformed JSON: expected ',' or '}' @13"),
	C('W', 'd', "{'zz':{'q' 1},'a':'x'}", "ERROR 22P02 $: malformed JSON: expected ':' @11 || ERROR 22P02 $: malformed JSON: expected ':' @11"),
	C('W', 'd', "{'zz':[1,],'a':'x'}", "ERROR 22P02 $: malformed JSON: unexpected character @9 || ERROR 22P02 $: malformed JSON: unexpected character @9"),
	C('W', 'd', "{'zz':{'a':1,},'a':'x'}", "ERROR 22P02 $: malformed JSON: expected a member name @13 || ERROR 22P02 $: malformed JSON: expected a member name @13"),
	C('W', 'd', "{'zz':{'a':1]},'a':'x'}", "ERROR 22P02 $: malformed JSON: expected ',' or '}' @12 || ERROR 22P02 $: malformed JSON: expected ',' or '}' @12"),
	C('W', 'd', "{'zz':[1}],'a':'x'}", "ERROR 22P02 $: malformed JSON: expected ',' or ']' @8 || ERROR 22P02 $: malformed JSON: expected ',' or ']' @8"),
	C('W', 'd', "{'zz':[1 2],'a':'x'}", "ERROR 22P02 $: malformed JSON: expected ',' or ']' @9 || ERROR 22P02 $: malformed JSON: expected ',' or ']' @9"),
	C('W', 'd', "{'zz':{,},'a':'x'}", "ERROR 22P02 $: malformed JSON: expected a member name @7 || ERROR 22P02 $: malformed JSON: expected a member name @7"),
	C('W', 'd', "{'zz':[", "ERROR 22P02 $: malformed JSON: unexpected end of input @7 || ERROR 22P02 $: malformed JSON: unexpected end of input @7"),
	C('W', 'd', "{'zz':{'a'", "ERROR 22P02 $: malformed JSON: expected ':' @10 || ERROR 22P02 $: malformed JSON: expected ':' @10"),
	C('W', 'd', "{'j':[1,]}", "ERROR 22P02 $: malformed JSON: unexpected character @8 || ERROR 22P02 $: malformed JSON: unexpected character @8"),
	C('W', 'd', "{'j':{'a':1,}}", "ERROR 22P02 $: malformed JSON: expected a member name @12 || ERROR 22P02 $: malformed JSON: expected a member name @12"),
	C('W', 'd', "{'j':{'a' 1}}", "ERROR 22P02 $: malformed JSON: expected ':' @10 || ERROR 22P02 $: malformed JSON: expected ':' @10"),
	C('W', 'd', "{'j':[1 2]}", "ERROR 22P02 $: malformed JSON: expected ',' or ']' @8 || ERROR 22P02 $: malformed JSON: expected ',' or ']' @8"),
	C('W', 'd', "{'j':{'a':[}}", "ERROR 22P02 $: malformed JSON: unexpected character @11 || ERROR 22P02 $: malformed JSON: unexpected character @11"),
	C('W', 'd', "{'k':[1,]}", "ERROR 22P02 $: malformed JSON: unexpected character @8 || ERROR 22P02 $: malformed JSON: unexpected character @8"),
	C('W', 'd', "{'k':{'a':1,}}", "ERROR 22P02 $: malformed JSON: expected a member name @12 || ERROR 22P02 $: malformed JSON: expected a member name @12"),
	C('W', 'd', "{'k':{'a':1}]}", "ERROR 22P02 $: malformed JSON: expected ',' or '}' @12 || ERROR 22P02 $: malformed JSON: expected ',' or '}' @12"),
	/* strings and bytes malformed: escapes, unicode escapes, surrogates, UTF-8, controls */
	C('W', 'd', "{'a':'\\x'}", "ERROR 22P02 $: malformed JSON: bad escape in a string @6 || ERROR 22P02 $: malformed JSON: bad escape in a string @6"),
	C('W', 'd', "{'a':'\\uZZZZ'}", "ERROR 22P02 $: malformed JSON: bad \\u escape @8 || ERROR 22P02 $: malformed JSON: bad \\u escape @8"),
	C('W', 'd', "{'a':'\\u12'}", "ERROR 22P02 $: malformed JSON: bad \\u escape @8 || ERROR 22P02 $: malformed JSON: bad \\u escape @8"),
	C('W', 'd', "{'a':'\\ud83d'}", "ERROR 22P02 $: malformed JSON: lone surrogate in \\u escape @6 || ERROR 22P02 $: malformed JSON: lone surrogate in \\u escape @6"),
	C('W', 'd', "{'a':'\\ud83dx'}", "ERROR 22P02 $: malformed JSON: lone surrogate in \\u escape @6 || ERROR 22P02 $: malformed JSON: lone surrogate in \\u escape @6"),
	C('W', 'd', "{'a':'\\ude00'}", "ERROR 22P02 $: malformed JSON: lone surrogate in \\u escape @6 || ERROR 22P02 $: malformed JSON: lone surrogate in \\u escape @6"),
	C('W', 'd', "{'\\x':1}", "ERROR 22P02 $: malformed JSON: bad escape in a string @2 || ERROR 22P02 $: malformed JSON: bad escape in a string @2"),
	C('W', 'd', "{'\\ud800':1,'a':'x'}", "ERROR 22P02 $: malformed JSON: lone surrogate in \\u escape @2 || ERROR 22P02 $: malformed JSON: lone surrogate in \\u escape @2"),
	C('W', 'd', "{'zz':'\\q','a':'x'}", "ERROR 22P02 $: malformed JSON: bad escape in a string @7 || ERROR 22P02 $: malformed JSON: bad escape in a string @7"),
	C('W', 'd', "{'zz':{'\\q':1},'a':'x'}", "ERROR 22P02 $: malformed JSON: bad escape in a string @8 || ERROR 22P02 $: malformed JSON: bad escape in a string @8"),
	C('W', 'd', "{'j':{'\\q':1}}", "ERROR 22P02 $: malformed JSON: bad escape in a string @7 || ERROR 22P02 $: malformed JSON: bad escape in a string @7"),
	C('W', 'd', "{'j':['\\q']}", "ERROR 22P02 $: malformed JSON: bad escape in a string @7 || ERROR 22P02 $: malformed JSON: bad escape in a string @7"),
	C('W', 'd', "{'k':['\\q']}", "ERROR 22P02 $: malformed JSON: bad escape in a string @7 || ERROR 22P02 $: malformed JSON: bad escape in a string @7"),
	C('W', 'd', "{'a':'\xff'}", "ERROR 22P02 $: malformed JSON: invalid UTF-8 @6 || ERROR 22P02 $: malformed JSON: invalid UTF-8 @6"),
	C('W', 'd', "{'a':'x','zz':'\xc3'}", "ERROR 22P02 $: malformed JSON: invalid UTF-8 @15 || ERROR 22P02 $: malformed JSON: invalid UTF-8 @15"),
	C('W', 'd', "{'\xed\xa0\x80':1}", "ERROR 22P02 $: malformed JSON: invalid UTF-8 @2 || ERROR 22P02 $: malformed JSON: invalid UTF-8 @2"),
	C('W', 'd', "{'a':'x\ty'}", "ERROR 22P02 $: malformed JSON: unescaped control character in a string @7 || ERROR 22P02 $: malformed JSON: unescaped control character in a string @7"),
	C('W', 'd', "{'a':'x\x01'}", "ERROR 22P02 $: malformed JSON: unescaped control character in a string @7 || ERROR 22P02 $: malformed JSON: unescaped control character in a string @7"),
	C('W', 'd', "{'a':'x}", "ERROR 22P02 $: malformed JSON: unterminated string @8 || ERROR 22P02 $: malformed JSON: unterminated string @8"),
	C('W', 'd', "{'a':'x'\xc3\xa9}", "ERROR 22P02 $: malformed JSON: expected ',' or '}' @8 || ERROR 22P02 $: malformed JSON: expected ',' or '}' @8"),
	C('W', 'd', "{'a':'x'}\xff", "ERROR 22P02 $: malformed JSON: unexpected data after the root value @9 || ERROR 22P02 $: malformed JSON: unexpected data after the root value @9"),
	C('W', 'd', "", "ERROR 22P02 $: malformed JSON: empty document @0 || ERROR 22P02 $: malformed JSON: empty document @0"),
	C('W', 'd', " \n\t", "ERROR 22P02 $: malformed JSON: empty document (only whitespace) @3 || ERROR 22P02 $: malformed JSON: empty document (only whitespace) @3"),
	C('W', 'd', "\x0c{}", "ERROR 22P02 $: malformed JSON: unexpected character @0 || ERROR 22P02 $: malformed JSON: unexpected character @0"),
	C('W', 'd', "@", "ERROR 22P02 $: malformed JSON: unexpected character @0 || ERROR 22P02 $: malformed JSON: unexpected character @0"),
	C('W', 'd', "'x'", "ERROR 22032 $: expected object, found string \"x\" @0 || ERROR 22032 $: expected object, found string \"x\" @0"),
	C('W', 'd', "[1]", "ERROR 22032 $: expected object, found array @0 || ERROR 22032 $: expected object, found array @0"),
	C('W', 'd', "null", "null || ok"),
	/* value errors, then the rest walked (serde_errors: every error; the malformed one wins) */
	C('W', 'c', "{'a':[1],'n':'y','o':[],'l':{},'b':1}", "ERROR 22032 $.a: expected string, found array @5 | ERROR 22032 $.n: expected integer, found string \"y\" @13 | ERROR 22032 $.o: expected object, found array @21 | ERROR 22032 $.l: expected array, found object @28 | ERROR 22032 $.b: expected boolean, found number 1 @35 || ERROR 22032 $.a: expected string, found array @5"),
	C('W', 'c', "{'a':[1,[2,{'x':3}]],'n':{'q':[]},'b':'t'}", "ERROR 22032 $.a: expected string, found array @5 | ERROR 22032 $.n: expected integer, found object @25 | ERROR 22032 $.b: expected boolean, found string \"t\" @38 || ERROR 22032 $.a: expected string, found array @5"),
	C('W', 'c', "{'a':[1,],'n':'y'}", "ERROR 22P02 $: malformed JSON: unexpected character @8 || ERROR 22P02 $: malformed JSON: unexpected character @8"),
	C('W', 'c', "{'a':{'x' 1},'n':'y'}", "ERROR 22P02 $: malformed JSON: expected ':' @10 || ERROR 22P02 $: malformed JSON: expected ':' @10"),
	C('W', 'c', "{'n':'y','a':[1}", "ERROR 22P02 $: malformed JSON: expected ',' or ']' @15 || ERROR 22P02 $: malformed JSON: expected ',' or ']' @15"),
	C('W', 'd', "{'a':[1,],'n':'y'}", "ERROR 22P02 $: malformed JSON: unexpected character @8 || ERROR 22P02 $: malformed JSON: unexpected character @8"),
	C('W', 'd', "{'a':{'b':[1,{'c':2}]},'n':1}", "ERROR 22032 $.a: expected string, found object @5 || ERROR 22032 $.a: expected string, found object @5"),
	C('W', 'c', "{'n':1e400,'f':'x','j':[1e400],'k':'q'}", "ERROR 22032 $.n: expected integer, found number 1e400 @5 | ERROR 22032 $.f: expected number, found string \"x\" @15 || ERROR 22032 $.n: expected integer, found number 1e400 @5"),
	/* roots */
	C('I', 'd', "5", "5 || ok"),
	C('I', 'd', " 5 \n", "5 || ok"),
	C('I', 'd', "5 6", "ERROR 22P02 $: malformed JSON: unexpected data after the root value @2 || ERROR 22P02 $: malformed JSON: unexpected data after the root value @2"),
	C('I', 'd', "5,", "ERROR 22P02 $: malformed JSON: unexpected data after the root value @1 || ERROR 22P02 $: malformed JSON: unexpected data after the root value @1"),
	C('I', 'd', "-", "ERROR 22P02 $: malformed JSON: invalid number @0 || ERROR 22P02 $: malformed JSON: invalid number @0"),
	C('I', 'd', "'5'", "ERROR 22032 $: expected integer, found string \"5\" @0 || ERROR 22032 $: expected integer, found string \"5\" @0"),
	C('I', 'd', "{}", "ERROR 22032 $: expected integer, found object @0 || ERROR 22P02 $: malformed JSON: unexpected character or structure @0"),
	C('L', 'd', "[1,2,3]", "[1,2,3] || ok"),
	C('L', 'd', " [ ] ", "[] || ok"),
	C('L', 'd', "[1,2,3] 4", "ERROR 22P02 $: malformed JSON: unexpected data after the root value @8 || ERROR 22P02 $: malformed JSON: unexpected data after the root value @8"),
	C('L', 'd', "[1,2,3]]", "ERROR 22P02 $: malformed JSON: unexpected data after the root value @7 || ERROR 22P02 $: malformed JSON: unexpected data after the root value @7"),
	C('L', 'd', "[1,'x',3]", "ERROR 22032 $[1]: expected integer, found string \"x\" @3 || ERROR 22032 $[1]: expected integer, found string \"x\" @3"),
	C('L', 'c', "[1,'x',{'a':[1]},3]", "ERROR 22032 $[1]: expected integer, found string \"x\" @3 | ERROR 22032 $[2]: expected integer, found object @7 || ERROR 22032 $[1]: expected integer, found string \"x\" @3"),
	C('L', 'd', "[", "ERROR 22P02 $: malformed JSON: unexpected end of input @1 || ERROR 22P02 $: malformed JSON: unexpected end of input @1"),
	C('L', 'd', "]", "ERROR 22P02 $: malformed JSON: unexpected character @0 || ERROR 22P02 $: malformed JSON: unexpected character @0"),
	/* unions: the tag found ahead (object_find), skipping the members before it */
	C('U', 'd', "{'kind':'o','x':'a'}", "{kind:'o',v1:{x:'a'},v2:null} || ok"),
	C('U', 'd', "{'x':'a','q':{'r':[1,{'s':2}]},'kind':'o'}", "{kind:'o',v1:{x:'a'},v2:null} || ok"),
	C('U', 'd', "{'y':3,'kind':'k'}", "{kind:'k',v1:null,v2:{y:3}} || ok"),
	C('U', 'd', "{'y':3,'\\u006bind':'k'}", "{kind:'k',v1:null,v2:{y:3}} || ok"),
	C('U', 'd', "{'y':3,'kind':'\\u006b'}", "{kind:'k',v1:null,v2:{y:3}} || ok"),
	C('U', 'd', "{'y':3}", "ERROR 2203A $.kind: missing required member (the union's tag, one of: o, k) @0 || ERROR 2203A $.kind: missing required member (the union's tag, one of: o, k) @0"),
	C('U', 'd', "{}", "ERROR 2203A $.kind: missing required member (the union's tag, one of: o, k) @0 || ERROR 2203A $.kind: missing required member (the union's tag, one of: o, k) @0"),
	C('U', 'd', "{'kind':1}", "ERROR 22032 $.kind: expected string (the union's tag, one of: o, k), found number 1 @8 || ERROR 22032 $.kind: expected string (the union's tag, one of: o, k), found number 1 @8"),
	C('U', 'd', "{'kind':'zz','y':1}", "ERROR 22032 $.kind: unknown tag value \"zz\", expected one of: o, k @8 || ERROR 22032 $.kind: unknown tag value \"zz\", expected one of: o, k @8"),
	C('U', 'c', "{'kind':'zz','y':1}", "ERROR 22032 $.kind: unknown tag value \"zz\", expected one of: o, k @8 || ERROR 22032 $.kind: unknown tag value \"zz\", expected one of: o, k @8"),
	C('U', 'd', "{'q':[1,}],'kind':'o'}", "ERROR 22P02 $: malformed JSON: unexpected character @8 || ERROR 22P02 $: malformed JSON: unexpected character @8"),
	C('U', 'd', "{'q':[1,2 'kind':'o'}", "ERROR 22P02 $: malformed JSON: expected ',' or ']' @10 || ERROR 22P02 $: malformed JSON: expected ',' or ']' @10"),
	C('U', 'd', "{'q' 1,'kind':'o'}", "ERROR 22P02 $: malformed JSON: expected ':' @5 || ERROR 22P02 $: malformed JSON: expected ':' @5"),
	C('U', 'd', "{'kind':'o','x':'a',}", "ERROR 22P02 $: malformed JSON: expected a member name @20 || ERROR 22P02 $: malformed JSON: expected a member name @20"),
	C('U', 'd', "{'kind':'o','x':'a'", "ERROR 22P02 $: malformed JSON: unexpected end of input @19 || ERROR 22P02 $: malformed JSON: unexpected end of input @19"),
	C('U', 'd', "{'q':'\\z','kind':'o'}", "ERROR 22P02 $: malformed JSON: bad escape in a string @6 || ERROR 22P02 $: malformed JSON: bad escape in a string @6"),
};

static const sd_type *tw, *tu, *ti, *tl;
static sd_plan *pw, *pu, *pi, *pl, *pr, *px;

static sd_plan *
plan_of(const sd_type *t, const char *opts)
{
	sd_error	err;
	char	   *o = q(opts);
	sd_plan    *p = sd_compile("T", o, strlen(o), t, NULL, NULL, &err);

	if (!p)
		fprintf(stderr, "  compile: %s: %s\n", err.path, err.problem);
	free(o);
	return p;
}

static void
setup(void)
{
	ut_composite("jwo", "x:text");
	ut_composite("jwp", "y:int4");
	tw = ut_composite("jw", "a:text,n:int4,b:bool,o:jwo,l:int4[],j:jsonb,k:json,f:float8,m:numeric");
	tu = ut_composite("jwu", "kind:text,v1:jwo,v2:jwp");
	ti = &ut_int4;
	tl = &ut_int4_array;
	pw = plan_of(tw, "{'optional':true}");
	pu = plan_of(tu, "{'optional':true,'tag':'kind','variants':{'o':'v1','k':'v2'}}");
	pi = plan_of(ti, "{}");
	pl = plan_of(tl, "{}");
	pr = plan_of(tw, "{'optional':true,'unknown':'reject'}");
	px = plan_of(tw, "{'optional':true,'extra':'k'}");
}

/* A document nested n levels deep in member `at` ("[[[...]]]"), as JSON text. */
static char *
deep(const char *before, int n, const char *after)
{
	size_t		lb = strlen(before),
				la = strlen(after);
	char	   *s = malloc(lb + 2 * (size_t) n + la + 1);

	memcpy(s, before, lb);
	memset(s + lb, '[', n);
	memset(s + lb + n, ']', n);
	memcpy(s + lb + 2 * n, after, la + 1);
	return s;
}

/* The decode's rendering, then serde_errors' (mode 'c': the check first), joined by " || " */
static const char *
run(char target, char mode, const char *doc)
{
	static char out[8192];
	const sd_plan *p = target == 'W' ? pw : target == 'U' ? pu : target == 'I' ? pi :
		target == 'R' ? pr : target == 'X' ? px : pl;
	size_t		n;

	if (mode == 'c')
	{
		snprintf(out, sizeof(out), "%s || ", ut_check_with(p, doc));
		n = strlen(out);
		snprintf(out + n, sizeof(out) - n, "%s", ut_decode_with(p, doc));
	}
	else
	{
		snprintf(out, sizeof(out), "%s || ", ut_decode_with(p, doc));
		n = strlen(out);
		snprintf(out + n, sizeof(out) - n, "%s", ut_check_with(p, doc));
	}
	return out;
}

/* A batch's array parsed whole (each_open / each_next) and element by element: "i:ok {row}" /
 * "i:ERR sqlstate path @off problem", joined by ' ' */
static const char *
batch(const char *doc, bool whole)
{
	static char out[4096];
	sd_error	err;
	sd_decoder *d = sd_decoder_create(NULL);
	sd_jwriter *w = sd_jwriter_create(pw, NULL, &err);
	sd_buf		b;
	uint32_t	root;
	int			r,
				i = 0;
	size_t		n = 0;

	out[0] = '\0';
	sd_buf_init(&b, NULL);
	sd_each_set_whole(d, whole ? 1 << 20 : 0);
	if (!sd_each_begin(d, pw, NULL, doc, strlen(doc), NULL, &err))
		snprintf(out, sizeof(out), "BEGIN %s %s @%lld %s", sd_code_sqlstate(err.code), err.path,
				 (long long) err.offset, err.problem);
	else
		while ((r = sd_each_next(d, &root, &err)) != 0 && n < sizeof(out) - 1)
		{
			if (r < 0)
			{
				n += snprintf(out + n, sizeof(out) - n, "%s%d:ERR %s %s @%lld %s", n ? " " : "", i,
							  sd_code_sqlstate(err.code), err.path, (long long) err.offset, err.problem);
				break;
			}
			sd_buf_reset(&b);
			(void) sd_jwriter_write(w, sd_plan_root(pw), sd_decoder_tape(d), root, &b);
			n += snprintf(out + n, sizeof(out) - n, "%s%d:ok %.*s", n ? " " : "", i++, (int) b.len,
						  b.s ? b.s : "");
		}
	sd_buf_free(&b);
	sd_jwriter_free(w);
	sd_decoder_destroy(d);
	return out;
}

static const struct
{
	int			line;
	const char *doc;
	const char *want;
}			batches[] = {
	{__LINE__, "[{'a':'x','n':1},{'a':'y','o':{'x':'z'}},{'zz':[1,{'q':2}]}]", "0:ok {\"a\":\"x\",\"n\":1,\"b\":null,\"o\":null,\"l\":null,\"j\":null,\"k\":null,\"f\":null,\"m\":null} 1:ok {\"a\":\"y\",\"n\":null,\"b\":null,\"o\":{\"x\":\"z\"},\"l\":null,\"j\":null,\"k\":null,\"f\":null,\"m\":null} 2:ok {\"a\":null,\"n\":null,\"b\":null,\"o\":null,\"l\":null,\"j\":null,\"k\":null,\"f\":null,\"m\":null}"},
	{__LINE__, " [ ] ", ""},
	{__LINE__, "[{'a':'x'},]", "0:ok {\"a\":\"x\",\"n\":null,\"b\":null,\"o\":null,\"l\":null,\"j\":null,\"k\":null,\"f\":null,\"m\":null} 1:ERR 22P02 $ @11 malformed JSON: unexpected character"},
	{__LINE__, "[{'a':'x'}] x", "0:ok {\"a\":\"x\",\"n\":null,\"b\":null,\"o\":null,\"l\":null,\"j\":null,\"k\":null,\"f\":null,\"m\":null} 1:ERR 22P02 $ @12 malformed JSON: unexpected data after the root value"},
	{__LINE__, "[{'a':'x'}]]", "0:ok {\"a\":\"x\",\"n\":null,\"b\":null,\"o\":null,\"l\":null,\"j\":null,\"k\":null,\"f\":null,\"m\":null} 1:ERR 22P02 $ @11 malformed JSON: unexpected data after the root value"},
	{__LINE__, "[{'a':'x'} {'a':'y'}]", "0:ok {\"a\":\"x\",\"n\":null,\"b\":null,\"o\":null,\"l\":null,\"j\":null,\"k\":null,\"f\":null,\"m\":null} 1:ERR 22P02 $ @11 malformed JSON: expected ',' or ']'"},
	{__LINE__, "[{'a':'x'},{'a':'y'}", "0:ok {\"a\":\"x\",\"n\":null,\"b\":null,\"o\":null,\"l\":null,\"j\":null,\"k\":null,\"f\":null,\"m\":null} 1:ok {\"a\":\"y\",\"n\":null,\"b\":null,\"o\":null,\"l\":null,\"j\":null,\"k\":null,\"f\":null,\"m\":null} 2:ERR 22P02 $ @20 malformed JSON: unexpected end of input"},
	{__LINE__, "[{'a':'x'},{'a':", "0:ok {\"a\":\"x\",\"n\":null,\"b\":null,\"o\":null,\"l\":null,\"j\":null,\"k\":null,\"f\":null,\"m\":null} 1:ERR 22P02 $ @16 malformed JSON: unexpected end of input"},
	{__LINE__, "[{'a':'x'},,{'a':'y'}]", "0:ok {\"a\":\"x\",\"n\":null,\"b\":null,\"o\":null,\"l\":null,\"j\":null,\"k\":null,\"f\":null,\"m\":null} 1:ERR 22P02 $ @11 malformed JSON: unexpected character"},
	{__LINE__, "[{'a':1},{'a':'y'}]", "0:ERR 22032 $[0].a @6 expected string, found number 1"},
	{__LINE__, "[{'a':'x'},{'a':[1,]}]", "0:ok {\"a\":\"x\",\"n\":null,\"b\":null,\"o\":null,\"l\":null,\"j\":null,\"k\":null,\"f\":null,\"m\":null} 1:ERR 22P02 $ @19 malformed JSON: unexpected character"},
	{__LINE__, "[{'a':'x'},{'n':'\\q'}]", "0:ok {\"a\":\"x\",\"n\":null,\"b\":null,\"o\":null,\"l\":null,\"j\":null,\"k\":null,\"f\":null,\"m\":null} 1:ERR 22P02 $ @17 malformed JSON: bad escape in a string"},
	{__LINE__, "[1,{'a':'y'}]", "0:ERR 22032 $[0] @1 expected object, found number 1"},
	{__LINE__, "{'a':'x'}", "0:ok {\"a\":\"x\",\"n\":null,\"b\":null,\"o\":null,\"l\":null,\"j\":null,\"k\":null,\"f\":null,\"m\":null}"},
	{__LINE__, "[", "0:ERR 22P02 $ @1 malformed JSON: unexpected end of input"},
};

/* print mode: one line per case (a newline in the text as \036) */
static void
print_case(const char *tag, int line, const char *got)
{
	printf("%s %d ", tag, line);
	for (const char *c = got; *c; c++)
		putchar(*c == '\n' ? '\036' : *c);
	putchar('\n');
}

void		unit_jsonwalk(void);

void
unit_jsonwalk(void)
{
	bool		print = getenv("UT_JSONWALK_PRINT") != NULL;

	setup();
	if (!pw || !pu || !pi || !pl || !pr || !px)
	{
		CHECK(false);
		return;
	}
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		char	   *doc = q(cases[i].doc);
		const char *got = run(cases[i].target, cases[i].mode, doc);

		if (print)
			print_case("JW", cases[i].line, got);
		else
			CHECK_STR(got, cases[i].want);
		free(doc);
	}
	for (size_t i = 0; i < sizeof(batches) / sizeof(batches[0]); i++)
	{
		char	   *doc = q(batches[i].doc);
		char		whole[4096];

		snprintf(whole, sizeof(whole), "%s", batch(doc, true));
		if (print)
			print_case("JB", batches[i].line, whole);
		else
		{
			CHECK_STR(whole, batches[i].want);
			CHECK_STR(batch(doc, false), batches[i].want);	/* the same element by element */
		}
		free(doc);
	}
	/* deep nesting: in an unknown member (skip_fast), in a jsonb value (skip_events), in a json
	 * value, in a mapped array (the engine's walk), as the root */
	{
		static const struct
		{
			int			line;
			char		target;
			const char *before;
			int			n;
			const char *after;
			const char *want;
		}			d[] = {
			{__LINE__, 'W', "{'zz':", 900, ",'a':'x'}", "ERROR 54001 $.zz[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]...: nesting deeper than serde.max_depth (512) @517 || ERROR 54001 $.zz[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]...: nesting deeper than serde.max_depth (512) @517"},
			{__LINE__, 'W', "{'zz':", 1100, ",'a':'x'}", "ERROR 54001 $.zz[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]...: nesting deeper than serde.max_depth (512) @517 || ERROR 54001 $.zz[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]...: nesting deeper than serde.max_depth (512) @517"},
			{__LINE__, 'W', "{'zz':", 100000, ",'a':'x'}", "ERROR 54001 $.zz[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]...: nesting deeper than serde.max_depth (512) @517 || ERROR 54001 $.zz[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]...: nesting deeper than serde.max_depth (512) @517"},
			{__LINE__, 'W', "{'j':", 900, "}", "ERROR 54001 $.j[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]...: nesting deeper than serde.max_depth (512) @516 || ERROR 54001 $.j[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]...: nesting deeper than serde.max_depth (512) @516"},
			{__LINE__, 'W', "{'j':", 1100, "}", "ERROR 54001 $.j[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]...: nesting deeper than serde.max_depth (512) @516 || ERROR 54001 $.j[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]...: nesting deeper than serde.max_depth (512) @516"},
			{__LINE__, 'W', "{'k':", 1100, "}", "ERROR 54001 $.k[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]...: nesting deeper than serde.max_depth (512) @516 || ERROR 54001 $.k[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]...: nesting deeper than serde.max_depth (512) @516"},
			{__LINE__, 'W', "{'zz':", 1100, ",'a':'x'", "ERROR 22P02 $: malformed JSON: unexpected end of input @2214 || ERROR 22P02 $: malformed JSON: unexpected end of input @2214"},
			{__LINE__, 'L', "", 1100, "", "ERROR 22032 $[0]: expected integer, found array @1 || ERROR 22032 $[0]: expected integer, found array @1"},
			{__LINE__, 'L', "[1,", 2, "]", "ERROR 22032 $[1]: expected integer, found array @3 || ERROR 22032 $[1]: expected integer, found array @3"},
		};

		for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++)
		{
			char	   *b = q(d[i].before),
					   *a = q(d[i].after),
					   *doc = deep(b, d[i].n, a);
			const char *got = run(d[i].target, 'd', doc);

			if (print)
				print_case("JD", d[i].line, got);
			else
				CHECK_STR(got, d[i].want);
			free(b);
			free(a);
			free(doc);
		}
	}
}
