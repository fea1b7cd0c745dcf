/* skein: the command line (placeholder until the CLI lands in this same commit series). */
#include <stdio.h>

int main(void)
{
    fputs("skein: command line not built yet\n", stderr);
    return 1;
}
