/*
 * test_sh_parse.c: kernel/shell/sh_lex.c and sh_parse.c on the host:
 * each line's tree, printed as an S-expression, against what POSIX's
 * grammar makes of it; here-documents; and the syntax errors busybox
 * ash gives, or a request for more lines while a command is open.
 */
#include "test.h"
#include <stdlib.h>
#include <stdarg.h>
#include "../../lib/string.c"


void *kmalloc(size_t n)
{
	return malloc(n);
}

void *kzalloc(size_t n)
{
	return calloc(1, n);
}

void kfree(const void *p)
{
	free((void *)p);
}

#include "../../kernel/shell/sh_arena.c"
#include "../../kernel/shell/sh_lex.c"
#include "../../kernel/shell/sh_parse.c"

static char out[4096];

static void emit(const char *s)
{
	strlcat(out, s, sizeof(out));
}

static void print_node(const struct sh_node *n);

static void print_words(const struct sh_word *w)
{
	for (; w; w = w->next) {
		emit(" ");
		emit(w->text);
	}
}

static void print_redirs(const struct sh_redir *r)
{
	static const char *const ops[] = {
		"<", ">", ">>", "<>", ">&", "<<",
	};
	char fd[4];

	for (; r; r = r->next) {
		snprintf(fd, sizeof(fd), " %d", r->fd);
		emit(fd);
		emit(ops[r->type]);
		emit(r->target);
		if (r->body) {
			emit("[");
			emit(r->body);
			emit(r->quoted ? "]q" : "]");
		}
	}
}

static void print_node(const struct sh_node *n)
{
	static const char *const names[] = {
		"cmd", "|", "&&", "||", "!", ";", "&", "if", "while",
		"until", "for", "case", "{", "(", "func",
	};
	const struct sh_case_item *item;

	if (!n) {
		emit("-");
		return;
	}
	emit("(");
	emit(names[n->type]);
	if (n->name) {
		emit(" ");
		emit(n->name);
	}
	if (n->assigns) {
		emit(" =");
		print_words(n->assigns);
	}
	print_words(n->words);
	print_redirs(n->redirs);
	for (item = n->items; item; item = item->next) {
		emit(" [");
		print_words(item->patterns);
		emit(" ]");
		print_node(item->body);
	}
	if (n->left) {
		emit(" ");
		print_node(n->left);
	}
	if (n->right) {
		emit(" ");
		print_node(n->right);
	}
	if (n->els) {
		emit(" ");
		print_node(n->els);
	}
	emit(")");
}

/* Parse every command of text; out gets their trees or the error. */
static int parse_all(const char *text, bool more)
{
	struct sh_arena *a = sh_arena_new();
	struct sh_lexer lx;
	struct sh_node *n;
	int err;

	out[0] = 0;
	sh_lexer_init(&lx, text, more, a);
	while (!(err = sh_parse_command(&lx, &n)) && n)
		print_node(n);
	if (err)
		emit(lx.error);
	sh_arena_put(a);
	return err;
}

static void check(int *failed, int line, const char *text, const char *want)
{
	parse_all(text, false);
	if (strcmp(out, want)) {
		printf("    # %s:%d: \"%s\" parses to\n    #   %s\n    # expected\n    #   %s\n",
		       __FILE__, line, text, out, want);
		*failed = 1;
	}
}
#define CHECK(text, want) check(failed, __LINE__, text, want)

TEST(simple_commands)
{
	CHECK("echo a b", "(cmd echo a b)");
	CHECK("  echo   'a b'  \"c $d\" # comment", "(cmd echo 'a b' \"c $d\")");
	CHECK("X=1 Y=$(a b) cmd x=2", "(cmd = X=1 Y=$(a b) cmd x=2)");
	CHECK("X=1", "(cmd = X=1)");
	CHECK("echo $(echo ')') `a b` ${x:-}", "(cmd echo $(echo ')') `a b` ${x:-})");
	CHECK("echo a\\\nb", "(cmd echo ab)");
	CHECK("echo $((1 + (2)))", "(cmd echo $((1 + (2))))");
}

TEST(lists_and_pipelines)
{
	CHECK("a | b | c", "(| (| (cmd a) (cmd b)) (cmd c))");
	CHECK("a && b || ! c", "(|| (&& (cmd a) (cmd b)) (! (cmd c)))");
	CHECK("a; b & c", "(; (; (cmd a) (& b  (cmd b))) (cmd c))");
	CHECK("a;\nb", "(cmd a)(cmd b)");
	CHECK("a |\n b", "(| (cmd a) (cmd b))");
	CHECK("a &&\n\n b", "(&& (cmd a) (cmd b))");
}

TEST(redirections)
{
	CHECK("echo x >f 2>&1 <in >>app", "(cmd echo x 1>f 2>&1 0<in 1>>app)");
	CHECK("a 2>/dev/null", "(cmd a 2>/dev/null)");
	CHECK("a 2 > f", "(cmd a 2 1>f)");
	CHECK(">f", "(cmd 1>f)");
	CHECK("{ a; } >f", "({ 1>f (cmd a))");
}

TEST(here_documents)
{
	CHECK("cat <<EOF\nhello $x\nEOF\necho next",
	      "(cmd cat 0<<EOF[hello $x\n])(cmd echo next)");
	CHECK("cat <<'EOF'\n$x\nEOF\n", "(cmd cat 0<<'EOF'[$x\n]q)");
	CHECK("cat <<-EOF\n\t\tone\n\tEOF\n", "(cmd cat 0<<EOF[one\n])");
	CHECK("cat <<A; cat <<B\na\nA\nb\nB\n",
	      "(; (cmd cat 0<<A[a\n]) (cmd cat 0<<B[b\n]))");
}

TEST(compound_commands)
{
	CHECK("if a; then b; elif c; then d; else e; fi",
	      "(if (cmd a) (cmd b) (if (cmd c) (cmd d) (cmd e)))");
	CHECK("if a\nthen\n b\nfi", "(if (cmd a) (cmd b))");
	CHECK("while a; do b; done", "(while (cmd a) (cmd b))");
	CHECK("until a; do b; done", "(until (cmd a) (cmd b))");
	CHECK("for i in 1 2; do echo $i; done",
	      "(for i 1 2 (cmd echo $i))");
	CHECK("for i\ndo echo; done", "(for i (cmd echo))");
	CHECK("case $x in a|b) one;; (c) two;; *) ;; esac",
	      "(case $x [ a b ](cmd one) [ c ](cmd two) [ * ]-)");
	CHECK("case x in\n a) b\nesac", "(case x [ a ](cmd b))");
	CHECK("{ a; b; }", "({ (; (cmd a) (cmd b)))");
	CHECK("(a; b)", "(( (; (cmd a) (cmd b)))");
	CHECK("f() { echo $1; }", "(func f ({ (cmd echo $1)))");
	CHECK("f ()\n{\n a\n}", "(func f ({ (cmd a)))");
	CHECK("echo if then", "(cmd echo if then)");
}

TEST(syntax_errors)
{
	CHECK("if a; then b; fi fi", "syntax error: unexpected \"fi\"");
	CHECK("a |", "syntax error: unexpected end of file");
	CHECK("a ;;", "syntax error: unexpected \";;\"");
	CHECK("echo 'x", "syntax error: unterminated quoted string");
	CHECK("echo >", "syntax error: unexpected end of file");
	CHECK("echo > ;", "syntax error: unexpected \";\"");
	CHECK("then", "syntax error: unexpected \"then\"");
	CHECK("( )", "syntax error: unexpected \")\"");
	CHECK("echo $(a", "syntax error: unterminated quoted string");
	CHECK("f() echo", "syntax error: unexpected \"echo\"");
}

/* An open command at the end of what was typed asks for another line. */
TEST(incomplete_asks_for_more)
{
	EXPECT_EQ(parse_all("if a; then", true), SH_INCOMPLETE);
	EXPECT_EQ(parse_all("echo 'a", true), SH_INCOMPLETE);
	EXPECT_EQ(parse_all("cat <<EOF\nx", true), SH_INCOMPLETE);
	EXPECT_EQ(parse_all("a &&", true), SH_INCOMPLETE);
	EXPECT_EQ(parse_all("for i in 1; do\necho\ndone", true), 0);
	EXPECT_EQ(parse_all("fi", true), -EINVAL);
}
