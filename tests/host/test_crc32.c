/* Host tests for the CRC-32: published check values, empty input, and
 * incremental updates split at every point, against a bitwise reference. */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "crc32.h"

#define BUF_LEN 1000
#define BYTE_VALUES 256
#define POLY_REFLECTED 0xEDB88320u
#define CRC_INIT_XOR 0xFFFFFFFFu
#define BITS_PER_BYTE 8
#define LCG_MUL 1103515245u
#define LCG_INC 12345u
#define LCG_SHIFT 16
#define STEP_FIRST 37 /* coprime strides for the three-piece splits */
#define STEP_SECOND 53

/* Reference: bit-at-a-time CRC-32 of a whole buffer, no table. */
static uint32_t crc32_bitwise(const uint8_t *p, size_t n)
{
    uint32_t crc = CRC_INIT_XOR;

    while (n--) {
        crc ^= *p++;
        for (int bit = 0; bit < BITS_PER_BYTE; bit++)
            crc = (crc >> 1) ^ ((crc & 1u) ? POLY_REFLECTED : 0);
    }
    return crc ^ CRC_INIT_XOR;
}

/* Published check values for short strings. */
static void test_known_values(void)
{
    static const char fox[] = "The quick brown fox jumps over the lazy dog";

    CHECK_EQ(crc32_update(0, "123456789", 9), 0xCBF43926u);
    CHECK_EQ(crc32_update(0, "a", 1), 0xE8B7BE43u);
    CHECK_EQ(crc32_update(0, "abc", 3), 0x352441C2u);
    CHECK_EQ(crc32_update(0, fox, sizeof(fox) - 1), 0x414FA339u);
}

/* Zero-length and NULL input leave the running value unchanged. */
static void test_empty(void)
{
    CHECK_EQ(crc32_update(0, "", 0), 0);
    CHECK_EQ(crc32_update(0, NULL, 0), 0);
    CHECK_EQ(crc32_update(0xCBF43926u, "x", 0), 0xCBF43926u);
    CHECK_EQ(crc32_update(0x12345678u, NULL, 0), 0x12345678u);
}

/* Every single byte value matches the bitwise reference (covers the table). */
static void test_every_byte(void)
{
    for (int b = 0; b < BYTE_VALUES; b++) {
        uint8_t byte = (uint8_t)b;

        CHECK_EQ(crc32_update(0, &byte, 1), crc32_bitwise(&byte, 1));
    }
}

/* A 1000-byte buffer split in two at every point, in three pieces, and fed
 * byte by byte gives the whole-buffer CRC. */
static void test_splits(void)
{
    static uint8_t buf[BUF_LEN];
    uint32_t state = 1, whole, crc;

    for (size_t i = 0; i < BUF_LEN; i++) {
        state = state * LCG_MUL + LCG_INC;
        buf[i] = (uint8_t)(state >> LCG_SHIFT);
    }
    whole = crc32_update(0, buf, BUF_LEN);
    CHECK_EQ(whole, crc32_bitwise(buf, BUF_LEN));
    for (size_t s = 0; s <= BUF_LEN; s++) {
        crc = crc32_update(0, buf, s);
        CHECK_EQ(crc, crc32_bitwise(buf, s));
        CHECK_EQ(crc32_update(crc, buf + s, BUF_LEN - s), whole);
    }
    for (size_t s = 0; s <= BUF_LEN; s += STEP_FIRST) {
        for (size_t t = s; t <= BUF_LEN; t += STEP_SECOND) {
            crc = crc32_update(0, buf, s);
            crc = crc32_update(crc, buf + s, t - s);
            CHECK_EQ(crc32_update(crc, buf + t, BUF_LEN - t), whole);
        }
    }
    crc = 0;
    for (size_t i = 0; i < BUF_LEN; i++)
        crc = crc32_update(crc, buf + i, 1);
    CHECK_EQ(crc, whole);
}

/* Runs every CRC test. */
int main(void)
{
    test_known_values();
    test_empty();
    test_every_byte();
    test_splits();
    return check_exit("crc32");
}
