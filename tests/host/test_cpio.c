/*
 * test_cpio.c: lib/cpio.c on archives made here as `cpio -o -H newc`
 * makes them: entries, names, modes and data; padding; and each way an
 * archive can be bad, which must be an error and never a read past it.
 */
#include "test.h"
#include <stdlib.h>
#include "../../lib/string.c"
#include "../../lib/cpio.c"

static char archive[4096];
static size_t len;

static void add(const char *name, unsigned int mode, const char *data)
{
	size_t n = strlen(name) + 1, size = data ? strlen(data) : 0;

	len += sprintf(archive + len,
		       "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X",
		       1, mode, 0, 0, 1, 0, size, 0, 0, 0, 0, n, 0);
	memcpy(archive + len, name, n);
	len += n;
	while (len % 4)
		archive[len++] = 0;
	if (size)
		memcpy(archive + len, data, size);
	len += size;
	while (len % 4)
		archive[len++] = 0;
}

static void start(void)
{
	memset(archive, 0, sizeof(archive));
	len = 0;
}

static struct cpio_reader reader(void)
{
	struct cpio_reader r = { .buf = archive, .len = len };

	return r;
}

TEST(entries_in_order)
{
	struct cpio_reader r;
	struct cpio_entry e;

	start();
	add(".", 040755, NULL);
	add("bin", 040755, NULL);
	add("bin/hello", 0100755, "#!/bin/sh\necho hi\n");
	add("empty", 0100644, "");
	add("TRAILER!!!", 0, NULL);
	r = reader();
	EXPECT_EQ(cpio_next(&r, &e), 1);
	EXPECT_STR(e.name, ".");
	EXPECT_EQ(cpio_next(&r, &e), 1);
	EXPECT_STR(e.name, "bin");
	EXPECT_EQ(e.mode, 040755);
	EXPECT_EQ(cpio_next(&r, &e), 1);
	EXPECT_STR(e.name, "bin/hello");
	EXPECT_EQ(e.mode, 0100755);
	EXPECT_EQ(e.size, 18);
	EXPECT(!memcmp(e.data, "#!/bin/sh\necho hi\n", 18));
	EXPECT_EQ(cpio_next(&r, &e), 1);
	EXPECT_STR(e.name, "empty");
	EXPECT_EQ(e.size, 0);
	EXPECT_EQ(cpio_next(&r, &e), 0);
}

static void expect_bad(int *failed, int line, const char *why)
{
	struct cpio_reader r = reader();
	struct cpio_entry e;
	int ret;

	while ((ret = cpio_next(&r, &e)) > 0)
		;
	if (ret != -EINVAL || !r.error || strcmp(r.error, why)) {
		printf("    # %s:%d: %d \"%s\", expected -EINVAL \"%s\"\n",
		       __FILE__, line, ret, r.error ? r.error : "", why);
		*failed = 1;
	}
}
#define EXPECT_BAD(why) expect_bad(failed, __LINE__, why)

TEST(bad_archives)
{
	start();
	add("a", 0100644, "x");
	EXPECT_BAD("no TRAILER!!! entry at the end");
	len = 50;
	EXPECT_BAD("a header runs past the end");
	start();
	add("a", 0100644, "data");
	archive[0] = '1';
	EXPECT_BAD("not a newc cpio archive (no 070701 magic)");
	start();
	add("a", 0100644, "data");
	archive[20] = 'g';
	EXPECT_BAD("a header field is not hexadecimal");
	start();
	add("a", 0100644, "data");
	memcpy(archive + 6 + 8 * 6, "0000FFFF", 8);	/* file size */
	EXPECT_BAD("a file's data runs past the end");
	start();
	add("a", 0100644, "data");
	memcpy(archive + 6 + 8 * 11, "0000FFFF", 8);	/* name size */
	EXPECT_BAD("a name runs past the end");
	start();
	add("ab", 0100644, "data");
	memcpy(archive + 6 + 8 * 11, "00000002", 8);	/* "ab" without NUL */
	EXPECT_BAD("a name is not NUL-terminated");
}
