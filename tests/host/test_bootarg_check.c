/* The boot arguments' check (src/kernel/bootarg_check.c) against a table
 * of three keys: an unknown key, an argument without '=', a value too long
 * or of no form, a key given twice, is refused with the message kmain prints; what is
 * key=value of a known key and form passes, whatever the spacing. */
#include <string.h>
#include "bootarg_key.h"
#include "check.h"

/* The table's check for mode=: fast or slow. */
static const char *mode_forms(const char *v)
{
    return strcmp(v, "fast") == 0 || strcmp(v, "slow") == 0 ? NULL : "fast, slow";
}

/* The table's check for count=: 0..99. */
static const char *count_forms(const char *v)
{
    return bootarg_uint(v, 99) ? NULL : "0..99";
}

/* The table's check for level=: 0..9. */
static const char *level_forms(const char *v)
{
    return bootarg_uint(v, 9) ? NULL : "0..9";
}

static const struct bootarg_key keys[] = {
    { "mode", mode_forms }, { "count", count_forms }, { "level", level_forms },
};

/* main: the message for args, or "" when they pass. */
static const char *check(const char *args)
{
    const char *why = bootargs_check_in(args, keys, sizeof keys / sizeof keys[0]);
    return why ? why : "";
}

int main(void)
{
    char long_arg[200] = "mode=";

    CHECK_STR_EQ(check(""), "");
    CHECK_STR_EQ(check("  mode=fast   count=7 "), "");
    CHECK_STR_EQ(check("count=0 mode=slow level=9"), "");
    CHECK_STR_EQ(check("count=0 mode=slow count=99"),
                 "bad boot argument count=0: the key is given twice (the arguments from one "
                 "place name each key once)");
    CHECK_STR_EQ(check("mode=fast modes=1"),
                 "unknown boot argument modes=1; valid keys: count, level, mode");
    CHECK_STR_EQ(check("mode"),
                 "unknown boot argument mode (not key=value); valid keys: count, level, mode");
    CHECK_STR_EQ(check("=fast"), "unknown boot argument =fast; valid keys: count, level, mode");
    CHECK_STR_EQ(check("count=7 mode=quick"),
                 "bad boot argument mode=quick; valid forms: fast, slow");
    CHECK_STR_EQ(check("mode="), "bad boot argument mode=; valid forms: fast, slow");
    CHECK_STR_EQ(check("count=100"), "bad boot argument count=100; valid forms: 0..99");
    CHECK_STR_EQ(check("count=-1"), "bad boot argument count=-1; valid forms: 0..99");
    CHECK_STR_EQ(check("count=7x"), "bad boot argument count=7x; valid forms: 0..99");
    CHECK_STR_EQ(check("count=+7"), "bad boot argument count=+7; valid forms: 0..99");
    CHECK_STR_EQ(check("count=99999999999999999999999"),
                 "bad boot argument count=99999999999999999999999; valid forms: 0..99");
    memset(long_arg + 5, 'f', BOOTARG_VALUE_MAX + 1);
    CHECK(strstr(check(long_arg), "the value is longer than 127 characters") != NULL);
    long_arg[5 + BOOTARG_VALUE_MAX] = 0;   /* the longest value: checked, of no form */
    CHECK(strstr(check(long_arg), "; valid forms: fast, slow") != NULL);
    CHECK(bootarg_uint("4294967295", 0xffffffffUL));
    CHECK(!bootarg_uint("4294967296", 0xffffffffUL));
    CHECK(!bootarg_uint("", 5));
    return check_exit("bootarg_check");
}
