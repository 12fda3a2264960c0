// Registers the Rust routines and the panic hook when R loads the package.
// The call also keeps the linker from dropping the static library.
void R_init_synthrisk_extendr(void *dll);
void register_extendr_panic_hook(void);

void R_init_synthrisk(void *dll) {
    register_extendr_panic_hook();
    R_init_synthrisk_extendr(dll);
}
