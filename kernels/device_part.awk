# device_part.awk — the device code of a .cu file that also holds host
# code, for NVRTC (which compiles no host code): its #defines, typedefs,
# static __device__ functions and the __global__ kernel named by -v kernel=
# (made a __device__ function, so a listing's wrapper can call it with its
# arguments fixed).  Makefile.am makes kernels/convert_src.h with it from
# elementwise.cu, so :ptx fp16 lists k_convert as the module runs it.
/^#define / { print; next }
/^typedef struct|^static __device__/ { on = 1 }
$0 ~ "^__global__ void " kernel "\\(" { on = 1; sub(/^__global__ /, "static __device__ __forceinline__ ") }
on { print }
# a block ends at a closing brace in the first column, or on its own line
on && (/^}/ || /^static __device__.*\{.*\}[ \t]*$/) { on = 0; print "" }
