//go:build cgo && !nompi

package mpi

/*
#cgo LDFLAGS: -ldl
#include <stdlib.h>
#include "mpit.h"
*/
import "C"

import (
	"fmt"
	"runtime"
	"sync"
	"unsafe"
)

// mpit is MPI_T's initialisation, made once per process and never undone:
// MPICH 4.0.2 reads its control variables' environment once per process
// (MPIR_T_env_init) while MPI_T_finalize frees their table, so a second
// MPI_T_init_thread after a finalize leaves the table empty and the next
// call crashes (a SIGSEGV in MPI_T_cvar_get_num, seen with a plain C
// program). A library may be initialised again while it is initialised,
// and MPI_Init and MPI_Finalize do not mind MPI_T being so.
var mpit struct {
	sync.Mutex
	done bool
}

// lockMPIT initialises MPI_T if it is not and holds it for one caller
// (MPI_THREAD_SERIALIZED: calls come from one thread at a time) on its
// OS thread; the returned function releases it.
func lockMPIT() (func(), error) {
	mpit.Lock()
	runtime.LockOSThread()
	unlock := func() {
		runtime.UnlockOSThread()
		mpit.Unlock()
	}
	if !mpit.done {
		if rc := C.mb_t_init(); rc != C.MPI_SUCCESS {
			err := mpiError("MPI_T_init_thread", rc)
			unlock()
			return nil, err
		}
		mpit.done = true
	}
	return unlock, nil
}

// ControlVars lists the library's MPI_T control variables with their
// descriptions, in the library's order. It needs neither MPI_Init nor a
// launcher: MPI_T has an initialisation of its own (MPI_T_init_thread).
func ControlVars() ([]ControlVar, error) {
	unlock, err := lockMPIT()
	if err != nil {
		return nil, err
	}
	defer unlock()
	var n C.int
	if rc := C.mb_cvar_num(&n); rc != C.MPI_SUCCESS {
		return nil, mpiError("MPI_T_cvar_get_num", rc)
	}
	vars := make([]ControlVar, 0, int(n))
	for i := C.int(0); i < n; i++ {
		v, err := controlVar(i)
		if err != nil {
			return nil, err
		}
		vars = append(vars, v)
	}
	return vars, nil
}

// controlVar reads variable i's name and description: their lengths
// first, then the strings.
func controlVar(i C.int) (ControlVar, error) {
	var nl, dl C.int
	if rc := C.mb_cvar_lens(i, &nl, &dl); rc != C.MPI_SUCCESS {
		return ControlVar{}, mpiError("MPI_T_cvar_get_info", rc)
	}
	name := make([]byte, int(nl)+1)
	desc := make([]byte, int(dl)+1)
	rc := C.mb_cvar_text(i, (*C.char)(unsafe.Pointer(&name[0])), C.int(len(name)),
		(*C.char)(unsafe.Pointer(&desc[0])), C.int(len(desc)))
	if rc != C.MPI_SUCCESS {
		return ControlVar{}, mpiError("MPI_T_cvar_get_info", rc)
	}
	return ControlVar{Name: cString(name), Desc: cString(desc)}, nil
}

// cString is b up to its first NUL.
func cString(b []byte) string {
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}

// ControlVarInt reads the int control variable of the name as this
// process's environment set it. An initialisation the library refuses
// (MPICH refuses a value it does not know, MPIR_CVAR_..._ALGORITHM=bogus)
// is an error naming MPI_T_init_thread: the environment is read once per
// process, so a value is tried in a process of its own.
func ControlVarInt(name string) (int, error) {
	unlock, err := lockMPIT()
	if err != nil {
		return 0, err
	}
	defer unlock()
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	var v C.int
	switch rc := C.mb_cvar_read_int(cs, &v); rc {
	case C.MPI_SUCCESS:
		return int(v), nil
	case C.MB_CVAR_NOT_INT:
		return 0, fmt.Errorf("MPI_T control variable %s is not one int bound to no object", name)
	default:
		return 0, kernelError("MPI_T_cvar_read "+name, rc)
	}
}

// LibraryFile is the path of the shared object that holds the MPI
// library this process runs with (libmpich.so.12, libmpi.so.40), as the
// dynamic loader found it.
func LibraryFile() (string, error) {
	p := C.mb_library_file()
	if p == nil {
		return "", fmt.Errorf("dladdr: no shared object holds MPI_T_init_thread (MPI linked statically?)")
	}
	return C.GoString(p), nil
}
