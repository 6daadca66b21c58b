package links

// Across hosts: scripts/netns-hosts.sh builds hosts mbh1..mbh3 on this
// machine (network namespaces on a bridge, 10.77.0.0/24, each rank in a UTS
// namespace of its own with the host's name), and the launcher starts one
// rank per host through scripts/netns-rsh.sh, an ssh stand-in. The ranks
// talk TCP over the veth pairs: Open MPI with the tcp BTL restricted to
// 10.77.0.0/24 (3 hosts), MPICH (hydra, ch4:ucx) with UCX_TLS=tcp,self on
// mb0 (2 hosts: MPICH busy-polls, and three polling ranks on two cores
// take minutes). The records must name the hosts.
//
// Needs root and network namespaces; skipped otherwise or when
// MPIBENCH_SKIP_NETNS is set. The namespaces are removed when the test
// ends, and `netns-hosts.sh up` first removes any left by a killed run.

import (
	stdcontext "context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"mpibench/e2e"
)

const (
	hostsSubnet  = "10.77.0.0/24"
	hostsIface   = "mb0"
	hostsTimeout = 60 * time.Second // one mpirun across the hosts
)

// hostsScripts returns the paths of netns-hosts.sh and netns-rsh.sh.
func hostsScripts(t *testing.T) (hostsSh, rsh string) {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "scripts"))
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "netns-hosts.sh"), filepath.Join(dir, "netns-rsh.sh")
}

// hostsNeed skips the test unless it can build hosts here.
func hostsNeed(t *testing.T) {
	t.Helper()
	if v, ok := os.LookupEnv("MPIBENCH_SKIP_NETNS"); ok {
		t.Skipf("MPIBENCH_SKIP_NETNS=%s: the multi-host test is skipped", v)
	}
	if os.Geteuid() != 0 {
		t.Skip("the multi-host test needs root (network namespaces, veth pairs); run it as root or set MPIBENCH_SKIP_NETNS=1")
	}
	for _, tool := range []string{"ip", "unshare", "bridge", "hostname"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("the multi-host test needs %s (iproute2, util-linux): %v", tool, err)
		}
	}
	if out, err := exec.Command("ip", "netns", "list").CombinedOutput(); err != nil {
		t.Skipf("ip netns does not work here: %v: %s", err, out)
	}
	if out, err := exec.Command("unshare", "--net", "--uts", "true").CombinedOutput(); err != nil {
		t.Skipf("cannot create network and UTS namespaces here: %v: %s", err, out)
	}
	e2e.NeedMPI(t)
	if e2e.LauncherKind() != "openmpi" && e2e.LauncherKind() != "mpich" {
		t.Skipf("launcher %s is neither Open MPI nor MPICH hydra", e2e.Launcher())
	}
}

// hostsScript runs netns-hosts.sh with a timeout.
func hostsScript(hostsSh string, n int, args ...string) ([]byte, error) {
	ctx, cancel := stdcontext.WithTimeout(stdcontext.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", append([]string{hostsSh}, args...)...)
	cmd.Env = append(os.Environ(), "MBH_HOSTS="+strconv.Itoa(n))
	return cmd.CombinedOutput()
}

// hostsUp builds n hosts and registers their removal; it holds a lock so
// that two test binaries (Open MPI and MPICH) never share the namespaces.
func hostsUp(t *testing.T, n int) []string {
	t.Helper()
	hostsSh, _ := hostsScripts(t)
	lock, err := os.OpenFile(filepath.Join(os.TempDir(), "mpibench-netns.lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		lock.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if out, err := hostsScript(hostsSh, n, "down"); err != nil {
			t.Errorf("netns-hosts.sh down: %v\n%s", err, out)
		}
		lock.Close() // releases the lock
	})
	if out, err := hostsScript(hostsSh, n, "up"); err != nil {
		t.Fatalf("netns-hosts.sh up: %v\n%s", err, out)
	}
	var hosts []string
	for i := 1; i <= n; i++ {
		hosts = append(hosts, fmt.Sprintf("mbh%d", i))
	}
	return hosts
}

// hostsLaunch runs mpibench on one rank per host; mpirun (or mpiexec) runs
// on the first host and starts the others through netns-rsh.sh.
func hostsLaunch(t *testing.T, hosts []string, args ...string) e2e.Result {
	t.Helper()
	hostsSh, rsh := hostsScripts(t)
	hf := filepath.Join(t.TempDir(), "hostfile")
	var lines []string
	for _, h := range hosts {
		if e2e.LauncherKind() == "openmpi" {
			lines = append(lines, h+" slots=1")
		} else {
			lines = append(lines, h+":1")
		}
	}
	if err := os.WriteFile(hf, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	argv := []string{hostsSh, "exec", hosts[0], e2e.Launcher()}
	np := strconv.Itoa(len(hosts))
	if e2e.LauncherKind() == "openmpi" {
		argv = append(argv, "--allow-run-as-root", "--oversubscribe",
			"--hostfile", hf, "--map-by", "node", "-np", np,
			"--mca", "plm_rsh_agent", rsh,
			"--mca", "pml", "ob1", "--mca", "btl", "tcp,self",
			"--mca", "btl_tcp_if_include", hostsSubnet,
			"--mca", "oob_tcp_if_include", hostsSubnet,
			// every host sees 2 cores and 1 rank, so Open MPI would spin;
			// on 2 cores 3 spinning ranks barely progress
			"--mca", "mpi_yield_when_idle", "1")
	} else {
		argv = append(argv, "-launcher", "ssh", "-launcher-exec", rsh,
			"-f", hf, "-iface", hostsIface, "-np", np,
			// MPICH's ch4:ucx would use shared memory between the
			// namespaces (one kernel); make it TCP on mb0
			"-genv", "UCX_TLS", "tcp,self", "-genv", "UCX_NET_DEVICES", hostsIface)
	}
	argv = append(argv, e2e.Bin())
	argv = append(argv, args...)
	return e2e.Execute(t, hostsTimeout, "bash", argv...)
}

type hostsRecord struct {
	Suite     string `json:"suite"`
	Benchmark string `json:"benchmark"`
	NP        int    `json:"np"`
	Context   struct {
		Host  string   `json:"host"`
		Hosts []string `json:"hosts"`
		Procs int      `json:"procs"`
	} `json:"context"`
}

// hostsRecords reads a -json file and checks that every record names the
// hosts in rank order, one rank each.
func hostsRecords(t *testing.T, path string, hosts []string) []hostsRecord {
	t.Helper()
	recs := e2e.ReadJSONL[hostsRecord](t, path)
	for i, r := range recs {
		if !slices.Equal(r.Context.Hosts, hosts) || r.Context.Host != hosts[0] || r.Context.Procs != len(hosts) {
			t.Fatalf("%s:%d: context host %q hosts %q procs %d, want %q, %q, %d",
				path, i+1, r.Context.Host, r.Context.Hosts, r.Context.Procs, hosts[0], hosts, len(hosts))
		}
	}
	if len(recs) == 0 {
		t.Fatalf("%s: no records", path)
	}
	t.Logf("%s: %d records, hosts %q", filepath.Base(path), len(recs), recs[0].Context.Hosts)
	return recs
}

func hostsBenchmarks(recs []hostsRecord) []string {
	var names []string
	for _, r := range recs {
		if !slices.Contains(names, r.Benchmark) {
			names = append(names, r.Benchmark)
		}
	}
	return names
}

// TestHosts runs mpi1, io and links across network namespaces, each
// standing for a host, and checks that the records name the hosts. b_eff
// is not run here: its records take the hosts from the same run context as
// mpi1's, and its measured loops last half a minute over TCP between
// namespaces.
//
// The run against the second MPI (MPICH) skips it: in a fresh-clone CI
// run (2026-11-28) hydra's ssh launcher, between the namespaces, did not
// return for 60 s after jobs whose ranks had all finished with exit code
// 0 and whose records were complete; alone it passes in seconds.
func TestHosts(t *testing.T) {
	if e2e.SecondMPI() {
		t.Skip("hydra's launcher between namespaces hangs at completion under load: run with -tags mpich alone")
	}
	hostsNeed(t)
	n := 3
	if e2e.LauncherKind() == "mpich" {
		n = 2
	}
	hosts := hostsUp(t, n)
	dir := t.TempDir()
	lens := filepath.Join(dir, "lens")
	if err := os.WriteFile(lens, []byte("0\n1024\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	t.Run("mpi1", func(t *testing.T) {
		js := filepath.Join(dir, "mpi1.jsonl")
		// -iter 20: over TCP between namespaces, with Open MPI's ranks
		// yielding, IMB 3.0's 1000 repetitions take half a minute; what is
		// checked here is where the records say they ran.
		e2e.MustSucceed(t, hostsLaunch(t, hosts, "mpi1", "PingPong", "Allreduce", "-iter", "20", "-msglen", lens, "-json", js))
		recs := hostsRecords(t, js, hosts)
		if got := hostsBenchmarks(recs); !slices.Equal(got, []string{"PingPong", "Allreduce"}) {
			t.Errorf("benchmarks %q, want PingPong, Allreduce", got)
		}
		if last := recs[len(recs)-1]; last.NP != n {
			t.Errorf("last Allreduce record on %d processes, want %d", last.NP, n)
		}
	})

	t.Run("io", func(t *testing.T) {
		iodir := filepath.Join(dir, "io") // one file system: every host sees it
		if err := os.Mkdir(iodir, 0o755); err != nil {
			t.Fatal(err)
		}
		js := filepath.Join(dir, "io.jsonl")
		e2e.MustSucceed(t, hostsLaunch(t, hosts, "io", "P_Write_Indv", "-msglen", lens, "-iodir", iodir, "-json", js))
		recs := hostsRecords(t, js, hosts)
		if got := hostsBenchmarks(recs); !slices.Equal(got, []string{"P_Write_Indv"}) {
			t.Errorf("benchmarks %q, want P_Write_Indv", got)
		}
		e2e.AssertEmpty(t, iodir)
	})

	t.Run("links", func(t *testing.T) { linksHosts(t, hosts, dir) })
}
