#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
// zlib (a dependency of cairo itself): the PNG encoder in CairoCanvas compresses with it.
#include <zlib.h>
