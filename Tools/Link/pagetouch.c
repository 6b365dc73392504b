// LD_PRELOAD library for Tools/Link/order.py: records where code of the executable is entered.
// At load every code page is made inaccessible. A fault opens the page it hit and closes the
// page opened RING faults ago, so at most RING pages run freely: every jump, call or return
// into another page faults again and its address is recorded (in 16-byte granules). That finds
// the functions that ran, not just their pages (the kernel maps code in 64 KB blocks, so the
// resident set says even less). Calls within the open pages are not seen; a second profile in
// a new layout finds them (make-order.sh). At exit the granules, as offsets from the load
// address in hex, go to the file named by PAGETOUCH_OUT, one per line.
#define _GNU_SOURCE
#include <link.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define GRANULE 16
#define RING 2  // at least 2: an instruction may straddle two pages

static uintptr_t base, start, end;  // load address; code pages [start, end)
static uint8_t *entered;            // one bit per granule
static long page;
static uintptr_t open_pages[RING];
static unsigned next_slot;

static int find_code(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size; (void)data;
    // The first object is the executable itself.
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
            base = info->dlpi_addr;
            start = (base + ph->p_vaddr) & ~(uintptr_t)(page - 1);
            end = (base + ph->p_vaddr + ph->p_memsz + page - 1) & ~(uintptr_t)(page - 1);
            return 1;
        }
    }
    return 1;
}

static void on_fault(int sig, siginfo_t *si, void *uc) {
    (void)uc;
    uintptr_t at = (uintptr_t)si->si_addr;
    if (at < start || at >= end) {
        signal(sig, SIG_DFL);  // not ours: die as the program would have
        return;
    }
    size_t g = (at - start) / GRANULE;
    __atomic_or_fetch(&entered[g / 8], (uint8_t)(1u << (g % 8)), __ATOMIC_RELAXED);
    uintptr_t p = at & ~(uintptr_t)(page - 1);
    unsigned slot = __atomic_fetch_add(&next_slot, 1, __ATOMIC_RELAXED) % RING;
    uintptr_t old = __atomic_exchange_n(&open_pages[slot], p, __ATOMIC_RELAXED);
    mprotect((void *)p, page, PROT_READ | PROT_EXEC);
    if (old && old != p) mprotect((void *)old, page, PROT_NONE);
}

__attribute__((destructor)) static void write_granules(void) {
    const char *out = getenv("PAGETOUCH_OUT");
    if (!out || !entered) return;
    // Everything runs freely from here on.
    mprotect((void *)start, end - start, PROT_READ | PROT_EXEC);
    FILE *f = fopen(out, "w");
    if (!f) return;
    for (size_t g = 0; g < (end - start) / GRANULE; g++)
        if (entered[g / 8] & (1u << (g % 8))) fprintf(f, "%lx\n", (unsigned long)(start + g * GRANULE - base));
    fclose(f);
}

__attribute__((constructor)) static void protect_code(void) {
    if (!getenv("PAGETOUCH_OUT")) return;
    page = sysconf(_SC_PAGESIZE);
    dl_iterate_phdr(find_code, NULL);
    if (end <= start) return;
    entered = calloc((end - start) / GRANULE / 8 + 1, 1);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigaction(SIGSEGV, &sa, NULL);
    mprotect((void *)start, end - start, PROT_NONE);
}
