/* glibc internal header: nnpad glue (see nn_ldbl128.h) */
#include "nn_ldbl128.h"
