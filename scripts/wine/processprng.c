/*
 * A stand-in for bcryptprimitives.dll, for running Go's Windows binaries
 * under Wine 8 (Debian 12), which has no such DLL: since Go 1.24 the
 * runtime takes its random bytes from bcryptprimitives.dll!ProcessPrng and
 * dies at start without it. This one export fills the buffer from
 * RtlGenRandom (advapi32's SystemFunction036), which Wine has. Real Windows
 * 10 and later ship the DLL; this file is only for the Wine test run.
 */
#include <windows.h>
#include <ntsecapi.h>

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
	while (len > 0) {
		ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
		if (!RtlGenRandom(data, n))
			return FALSE;
		data += n;
		len -= n;
	}
	return TRUE;
}
