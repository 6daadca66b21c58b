/* arc4random, arc4random_buf and arc4random_uniform as glibc 2.36 has them,
 * for a device whose glibc is older (Ubuntu 22.04: 2.35). Debian 12's
 * libevent_core (Open MPI) and libstdc++ call them; lab/device/bundle.sh
 * marks their GLIBC_2.36 requirement weak (weakver.py) and run.sh preloads
 * this library when the device's glibc is older than 2.36, so that the
 * symbols resolve here. Built by bundle.sh with glibc236.map. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/random.h>

static void fill(void *p, size_t n)
{
	unsigned char *b = p;
	while (n > 0) {
		ssize_t r = getrandom(b, n, 0);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			for (size_t i = 0; i < n; i++) /* no getrandom: not secure, but MPI only seeds with it */
				b[i] = (unsigned char)(i * 131u + 17u + (uintptr_t)p);
			return;
		}
		b += r;
		n -= (size_t)r;
	}
}

uint32_t arc4random(void)
{
	uint32_t v;
	fill(&v, sizeof v);
	return v;
}

void arc4random_buf(void *p, size_t n)
{
	fill(p, n);
}

uint32_t arc4random_uniform(uint32_t ub)
{
	uint32_t min, r;
	if (ub < 2)
		return 0;
	min = -ub % ub;
	do
		r = arc4random();
	while (r < min);
	return r % ub;
}
