// pcsc-lite on Linux (libpcsclite-dev); on macOS the same header names are PCSC.framework's.
#include <PCSC/winscard.h>
#include <PCSC/wintypes.h>
