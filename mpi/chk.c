//go:build !nompi

#include "chk.h"

const char *mb_chk_call;
