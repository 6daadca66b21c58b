//go:build cgo && !nompi

#include <errno.h>
#include <time.h>
#include "settle.h"

void mb_settle(void)
{
	struct timespec left = {0, MB_SETTLE_NS};
	while (nanosleep(&left, &left) != 0 && errno == EINTR)
		;
}
