/* skein info: what this build is and what this machine can run. */
#include <stdio.h>

#include "cli.h"
#include "skein/engine.h"
#include "skein/types.h"

int cli_info(const cli_options *o, sk_error *err)
{
    (void)o;
    (void)err;
    printf("skein        %s\n", sk_version());
    printf("build type   %s\n", SKEIN_BUILD_TYPE[0] ? SKEIN_BUILD_TYPE : "(none)");
    if (SKEIN_SANITIZERS[0])
        printf("sanitizers   %s\n", SKEIN_SANITIZERS);
    printf("real type    %s\n", SK_REAL_NAME);
    sk_isa_info isas[8];
    const int n = sk_isa_list(isas, 8);
    for (int i = 0; i < n; i++)
        printf("isa          %-7s %s, %s\n", isas[i].name,
               isas[i].compiled ? "compiled" : "not compiled",
               isas[i].usable ? "usable on this CPU" : "not supported by this CPU");
    printf("threads      %d (OpenMP maximum; --threads N to change)\n", sk_default_threads());
    return 0;
}
