/* IEEE 802.3 CRC-32 (reflected polynomial 0xEDB88320, initial value and
 * final XOR 0xFFFFFFFF), with the same incremental interface as zlib's
 * crc32(): start from 0 and feed the data in any number of pieces. */
#ifndef CRC32_H
#define CRC32_H

#include <stddef.h>
#include <stdint.h>

/* Returns the CRC of the data covered by crc followed by buf[0..n).
 * crc32_update(0, "123456789", 9) == 0xCBF43926. n == 0 or buf == NULL
 * returns crc unchanged. */
uint32_t crc32_update(uint32_t crc, const void *buf, size_t n);

#endif
