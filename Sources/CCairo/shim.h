#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
// zlib (cairo depends on it anyway): CairoCanvas takes the PNG chunk CRC-32 and the zlib
// stream's Adler-32 from it; the compression itself is its own (RunLengthDeflate.swift).
#include <zlib.h>
