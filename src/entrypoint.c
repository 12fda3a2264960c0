// Registers the Rust routines and the panic hook when R loads the package.
// The call also keeps the linker from dropping the static library.
#include <Rinternals.h>
#include <R_ext/Utils.h>

void R_init_synthrisk_extendr(void *dll);
void register_extendr_panic_hook(void);

static void check_interrupt(void *unused) {
    (void) unused;
    R_CheckUserInterrupt();
}

// 1 when the user asked to interrupt (Ctrl-C). R_ToplevelExec catches the longjmp
// that R_CheckUserInterrupt makes on an interrupt, so it never crosses the Rust frames
// that call this between chunks of work; the R side then signals the interrupt.
int synthrisk_user_interrupt(void) {
    return R_ToplevelExec(check_interrupt, NULL) ? 0 : 1;
}

void R_init_synthrisk(void *dll) {
    register_extendr_panic_hook();
    R_init_synthrisk_extendr(dll);
}
