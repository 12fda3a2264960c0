# Regenerates NAMESPACE and man/ without compiling: sources R/ and loads data/.
load_package_source <- function(path) {
  env <- roxygen2::load_source(path)
  for (f in list.files(file.path(path, "data"), full.names = TRUE)) load(f, envir = env)
  env
}
roxygen2::roxygenise(roclets = c("rd", "namespace"), load_code = load_package_source)
