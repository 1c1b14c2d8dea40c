/* kern_dd_vec.h — the vector twins of kern_act.c's double-double fp64
 * kernels (sigmoid and its derivative, log_sigmoid', tanh', swish, gelu in
 * both forms, exact gelu', softplus, log_sigmoid, elu, selu), included there twice: four
 * AVX2 vectors side by side (sixteen lanes, w16) and AVX-512 (eight), each with its V* macros.  Every line
 * does what the scalar code (dd_exp, dd_div, dd_muld, gelu_t, d_sigmoid,
 * d_gelu, dd_phi, d_gelu_exact, d_gelu_d, dd_certain) does, in the same order, so a lane's h + l has the
 * scalar bits and the same elements take the careful path.  Lanes outside
 * the scalar kernel's range get NaN (not certain: the careful path). */

VT static inline VD VN(exp)(VD x, VD *lo)
{
    VD km = VFMA(x, VS(INV_LN2_N), VS(DD_MAGIC)), k = VSUB(km, VS(DD_MAGIC));
    VI ki = VISUB(VCI(km), VCI(VS(DD_MAGIC))), j = VIAND(ki, VISET(15));
    VD scale = VCD(VIADD(VISHL(VISUB(ki, j), 48), VCI(VS(1.0))));
    VD r0 = VFNMA(k, VS(LN2_N_1), x);
    VD pk = VMUL(k, VS(LN2_N_2)), pe = VFMS(k, VS(LN2_N_2), pk), npk = VNEG(pk);
    VD rh = VADD(r0, npk), bb = VSUB(rh, r0);
    VD rl0 = VADD(VSUB(r0, VSUB(rh, bb)), VSUB(npk, bb));
    VD rl = VSUB(VSUB(rl0, pe), VMUL(k, VS(LN2_N_3)));
    VD s2 = VMUL(rh, rh), s2e = VFMS(rh, rh, s2);
    VD h2 = VMUL(VS(0.5), s2), h2e = VFMA(VS(0.5), s2e, VMUL(rh, rl));
    VD q = VS(DD_C[0]);
    for (int i = 1; i < DD_NC; i++) q = VFMA(q, rh, VS(DD_C[i]));
    VD tail = VMUL(VMUL(rh, s2), q);
    VD mh = VADD(rh, h2), mb = VSUB(mh, rh);
    VD ml0 = VADD(VSUB(rh, VSUB(mh, mb)), VSUB(h2, mb));
    VD ml = VADD(ml0, VADD(VADD(rl, h2e), tail));
    VD th = VLOOKUP(EXP2_HI, j), tl = VLOOKUP(EXP2_LO, j);
    VD a = VMUL(th, mh), ae = VFMS(th, mh, a);
    VD sh = VADD(th, a), sl = VSUB(a, VSUB(sh, th));
    VD l2 = VADD(sl, VADD(ae, VFMA(th, ml, VMUL(tl, VADD(VS(1.0), mh)))));
    VD eh = VADD(sh, l2), el = VSUB(l2, VSUB(eh, sh));
    *lo = VMUL(el, scale);
    return VMUL(eh, scale);
}

/* n / (th + tl), as dd_div */
VT static inline VD VN(div)(VD nh, VD nl, VD th, VD tl, VD *lo)
{
    VD r = VDIV(VS(1.0), th), q = VMUL(nh, r), rem = VFNMA(q, th, nh);
    rem = VSUB(VADD(rem, nl), VMUL(q, tl));
    VD c = VMUL(rem, r), s = VADD(q, c);
    *lo = VSUB(c, VSUB(s, q));
    return s;
}

/* σ(th + tl) (tl = 0 for sigmoid itself), as d_sigmoid and d_gelu */
VT static inline VD VN(sig)(VD th, VD tl, VD *lo)
{
    VD ath = VABS(th), el;
    VD eh = VN(exp)(VNEG(ath), &el);
    VM pos = VCMP(th, VS(0.0), _CMP_GE_OQ);
    el = VFMA(VBLEND(pos, tl, VNEG(tl)), eh, el);   /* fma(th >= 0 ? -tl : tl, e.h, e.l) */
    VD t = VADD(VS(1.0), eh), tl2 = VSUB(eh, VSUB(t, VS(1.0)));
    return VN(div)(VBLEND(pos, eh, VS(1.0)), VBLEND(pos, el, VS(0.0)), t, VADD(tl2, el), lo);
}

/* x (h + l), as dd_muld */
VT static inline VD VN(muld)(VD x, VD h, VD l, VD *lo)
{
    VD p = VMUL(x, h), pe = VFMS(x, h, p), c = VFMA(x, l, pe), s = VADD(p, c);
    *lo = VSUB(c, VSUB(s, p));
    return s;
}

/* two_sum, fast2 and dd_mul, as the scalar code */
VT static inline VD VN(two_sum)(VD a, VD b, VD *lo)
{
    VD s = VADD(a, b), bb = VSUB(s, a);
    *lo = VADD(VSUB(a, VSUB(s, bb)), VSUB(b, bb));
    return s;
}
VT static inline VD VN(fast2)(VD a, VD b, VD *lo)
{
    VD s = VADD(a, b);
    *lo = VSUB(b, VSUB(s, a));
    return s;
}
VT static inline VD VN(mul)(VD ah, VD al, VD bh, VD bl, VD *lo)
{
    VD p = VMUL(ah, bh), pe = VFMS(ah, bh, p);
    return VN(fast2)(p, VADD(pe, VFMA(ah, bl, VMUL(al, bh))), lo);
}

/* E = e^(-a²/2) and S = R(a) for 0 <= a <= PHI_AMAX, as dd_phi */
VT static inline void VN(phi)(VD a, VD *Eh, VD *El, VD *Sh, VD *Sl)
{
    VD km = VADD(VMUL(a, VS(PHI_N)), VS(DD_MAGIC));
    VD a0 = VMUL(VSUB(km, VS(DD_MAGIC)), VS(1.0 / PHI_N)), d = VSUB(a, a0);
    VI j = VISUB(VCI(km), VCI(VS(DD_MAGIC)));
    VD c0h = VGATHER(PHI_R_HI, j), c0l = VGATHER(PHI_R_LO, j), sl, c1h, c1l, c2h, c2l, ul;
    VD p = VMUL(a0, c0h), pe = VFMS(a0, c0h, p);
    VD sh = VN(two_sum)(p, VS(-INV_SQRT2PI_D[0]), &sl);
    c1h = VN(fast2)(sh, VADD(sl, VSUB(VADD(pe, VMUL(a0, c0l)), VS(INV_SQRT2PI_D[1]))), &c1l);
    p = VMUL(a0, c1h), pe = VFMS(a0, c1h, p);
    sh = VN(two_sum)(p, c0h, &sl);
    c2h = VN(fast2)(VMUL(VS(0.5), sh), VMUL(VS(0.5), VADD(sl, VADD(pe, VFMA(a0, c1l, c0l)))), &c2l);
    VD b1 = c1h, b2 = VMUL(VS(2.0), c2h);
    VD b3 = VFMA(a0, b2, VMUL(VS(2.0), b1)), b4 = VFMA(a0, b3, VMUL(VS(3.0), b2)), b5 = VFMA(a0, b4, VMUL(VS(4.0), b3));
    VD b6 = VFMA(a0, b5, VMUL(VS(5.0), b4)), b7 = VFMA(a0, b6, VMUL(VS(6.0), b5)), b8 = VFMA(a0, b7, VMUL(VS(7.0), b6));
    VD b9 = VFMA(a0, b8, VMUL(VS(8.0), b7)), b10 = VFMA(a0, b9, VMUL(VS(9.0), b8));
    VD d2 = VMUL(d, d), d3 = VMUL(d2, d), d4 = VMUL(d2, d2), d5 = VMUL(d4, d), d6 = VMUL(d4, d2), d7 = VMUL(d4, d3);
    VD d8 = VMUL(d4, d4);
    VD t = VMUL(b3, VMUL(d, VS(PHI_F[3])));
    t = VFMA(b4, VMUL(d2, VS(PHI_F[4])), t);
    t = VFMA(b5, VMUL(d3, VS(PHI_F[5])), t);
    t = VFMA(b6, VMUL(d4, VS(PHI_F[6])), t);
    t = VFMA(b7, VMUL(d5, VS(PHI_F[7])), t);
    t = VFMA(b8, VMUL(d6, VS(PHI_F[8])), t);
    t = VFMA(b9, VMUL(d7, VS(PHI_F[9])), t);
    t = VFMA(b10, VMUL(d8, VS(PHI_F[10])), t);
    VD uh = VN(two_sum)(c2h, t, &ul);
    ul = VADD(ul, c2l);
    p = VMUL(d, uh), pe = VFMS(d, uh, p);
    sh = VN(two_sum)(c1h, p, &sl);
    uh = VN(fast2)(sh, VADD(sl, VADD(pe, VFMA(d, ul, c1l))), &ul);
    p = VMUL(d, uh), pe = VFMS(d, uh, p);
    sh = VN(two_sum)(c0h, p, &sl);
    *Sh = VN(fast2)(sh, VADD(sl, VADD(pe, VFMA(d, ul, c0l))), Sl);
    VD h = VMUL(a, a), l = VFMS(a, a, h), el;
    VD eh = VN(exp)(VMUL(VS(-0.5), h), &el);
    *Eh = VN(fast2)(eh, VFMA(VMUL(VS(-0.5), l), eh, el), El);
}

/* exact gelu (d = false) or gelu' (d = true), as d_gelu_exact and d_gelu_d;
 * lanes outside their range NaN */
VT static inline VD VN(gelu_exact)(VD x, bool deriv, VD *lo)
{
    VD a = VABS(x), Eh, El, Sh, Sl, qh, ql, rh, rl, oh, ol;
    VM in = VCMP(a, VS(PHI_AMAX), _CMP_LE_OQ);
    VN(phi)(VBLEND(in, VS(0.0), a), &Eh, &El, &Sh, &Sl);
    VM neg = VCMP(x, VS(0.0), _CMP_LT_OQ);
    if (!deriv) {
        qh = VN(mul)(Eh, El, Sh, Sl, &ql);
        oh = VN(two_sum)(VS(1.0), VNEG(qh), &ol);
        oh = VN(fast2)(oh, VSUB(ol, ql), &ol);
        oh = VBLEND(neg, oh, qh);
        ol = VBLEND(neg, ol, ql);
        rh = VN(muld)(x, oh, ol, &rl);
        /* beyond PHI_AMAX: x itself for x > 0 (not inf), else the careful path */
        VM big = VMAND(VCMP(x, VS(PHI_AMAX), _CMP_GT_OQ), VCMP(x, VS(INFINITY), _CMP_LT_OQ));
        rh = VBLEND(in, VBLEND(big, VS(NAN), x), rh);
        rl = VBLEND(in, VS(0.0), rl);
    } else {
        VD ach, acl, vh, vl, wh, wl;
        ach = VN(muld)(a, VS(INV_SQRT2PI_D[0]), VS(INV_SQRT2PI_D[1]), &acl);
        vh = VN(two_sum)(Sh, VNEG(ach), &vl);
        vh = VN(fast2)(vh, VADD(vl, VSUB(Sl, acl)), &vl);
        wh = VN(mul)(Eh, El, vh, vl, &wl);
        oh = VN(two_sum)(VS(1.0), VNEG(wh), &ol);
        oh = VN(fast2)(oh, VSUB(ol, wl), &ol);
        rh = VBLEND(neg, oh, wh);
        rl = VBLEND(neg, ol, wl);
        VM nr = VCMP(VABS(VSUB(x, VS(ROOT_GELU_D.hi))), VS(ROOT_WINDOW), _CMP_LT_OQ);
        rh = VBLEND(in, VS(NAN), rh);
        rh = VBLEND(nr, rh, VS(NAN));
    }
    *lo = rl;
    return rh;
}

/* log(1 + e), e = eh + el in [0, 1], as dd_log1p */
VT static inline VD VN(log1p)(VD eh, VD el, VD *lo)
{
    VD zl, zh = VN(two_sum)(VS(1.0), eh, &zl);
    VM two = VCMP(zh, VS(2.0), _CMP_GE_OQ);
    VD k = VBLEND(two, VS(0.0), VS(1.0)), sc = VBLEND(two, VS(1.0), VS(0.5));
    VD mh = VMUL(sc, zh), ml = VMUL(sc, zl), mll = VMUL(sc, el);
    VD jm = VADD(VMUL(VSUB(mh, VS(1.0)), VS(LOG_N)), VS(DD_MAGIC));
    VI j = VISUB(VCI(jm), VCI(VS(DD_MAGIC)));
    VD c = VGATHER(LOG_C, j), ph = VMUL(mh, c), pl = VFMS(mh, c, ph), s0l;
    VD s0h = VN(two_sum)(VSUB(ph, VS(1.0)), VMUL(ml, c), &s0l);
    VD ul, uh = VN(fast2)(s0h, VADD(s0l, VADD(pl, VMUL(mll, c))), &ul);
    VD s2 = VMUL(uh, uh), s2e = VADD(VFMS(uh, uh, s2), VMUL(VMUL(VS(2.0), uh), ul));
    VD q = VS(LOG_P[0]);
    for (int i = 1; i < 7; i++) q = VFMA(q, uh, VS(LOG_P[i]));
    VD ml2, mh2 = VN(two_sum)(uh, VMUL(VS(-0.5), s2), &ml2);
    VD lo2 = VADD(ml2, VADD(VSUB(ul, VMUL(VS(0.5), s2e)), VMUL(VMUL(uh, s2), q)));
    VD Ll, Lh = VN(fast2)(mh2, lo2, &Ll);
    VD th = VFMA(k, VS(LN2_D[0]), VGATHER(LOG_T_HI, j)), tl = VFMA(k, VS(LN2_D[1]), VGATHER(LOG_T_LO, j));
    VD sl, sh = VN(two_sum)(th, Lh, &sl);
    return VN(fast2)(sh, VADD(sl, VADD(tl, Ll)), lo);
}

/* softplus (neg false) or log_sigmoid (neg true), as d_softplus and
 * d_log_sigmoid; lanes outside the range NaN */
VT static inline VD VN(softplus)(VD x, bool neg, VD *lo)
{
    VD xs = neg ? VNEG(x) : x;
    VM in = VCMP(VABS(xs), VS(DD_XMAX), _CMP_LE_OQ);
    VD el, eh = VN(exp)(VNEG(VABS(VBLEND(in, VS(0.0), xs))), &el);
    VD Ll, Lh = VN(log1p)(eh, el, &Ll);
    VD sl, sh = VN(two_sum)(xs, Lh, &sl);
    sh = VN(fast2)(sh, VADD(sl, Ll), &sl);
    VM pos = VCMP(xs, VS(0.0), _CMP_GT_OQ);
    VD rh = VBLEND(pos, Lh, sh), rl = VBLEND(pos, Ll, sl);
    rh = VBLEND(in, VS(NAN), rh);
    *lo = neg ? VNEG(rl) : rl;
    return neg ? VNEG(rh) : rh;
}

/* e^x - 1 for -DD_XMAX <= x <= 0, as dd_expm1 (both branches, then the
 * one dd_expm1 takes) */
VT static inline VD VN(expm1)(VD x, VD *lo)
{
    VD s2 = VMUL(x, x), s2e = VFMS(x, x, s2);
    VD h2 = VMUL(VS(0.5), s2), h2e = VMUL(VS(0.5), s2e);
    VD q = VS(DD_C[0]);
    for (int i = 1; i < DD_NC; i++) q = VFMA(q, x, VS(DD_C[i]));
    VD pl, ph = VN(two_sum)(x, h2, &pl);
    ph = VN(fast2)(ph, VADD(pl, VADD(h2e, VMUL(VMUL(x, s2), q))), &pl);
    VD el, eh = VN(exp)(x, &el), dl, dh = VN(two_sum)(eh, VS(-1.0), &dl);
    dh = VN(fast2)(dh, VADD(dl, el), &dl);
    VM small = VCMP(x, VS(-0x1.62e42fefa39efp-8), _CMP_GT_OQ);
    *lo = VBLEND(small, dl, pl);
    return VBLEND(small, dh, ph);
}

/* elu (selu false) or selu, as d_elu and d_selu; lanes outside NaN */
VT static inline VD VN(elu)(VD x, bool selu, double alpha, VD *lo)
{
    VM neg = VCMP(x, VS(0.0), _CMP_LE_OQ), in = VCMP(x, VS(-DD_XMAX), _CMP_GE_OQ);
    VD ml, mh = VN(expm1)(VBLEND(VMAND(neg, in), VS(0.0), x), &ml), ph, pl;
    if (selu) {
        dd_t sa = selu_sa();
        mh = VN(mul)(VS(sa.h), VS(sa.l), mh, ml, &ml);
        ph = VMUL(VS(SELU_SCALE), x);
        pl = VFMS(VS(SELU_SCALE), x, ph);
    } else {
        mh = VN(muld)(VS(alpha), mh, ml, &ml);
        ph = x;
        pl = VS(0.0);
    }
    mh = VBLEND(in, VS(NAN), mh);
    *lo = VBLEND(neg, pl, ml);
    return VBLEND(neg, ph, mh);
}

/* the lanes whose h is certain (dd_certain), as a bit mask */
VT static inline int VN(certain)(VD h, VD l)
{
    VD ah = VABS(h), eb = VCD(VIAND(VCI(ah), VISET(0x7ff0000000000000LL)));
    VM ok = VMAND(VCMP(ah, VS(0x1p-1020), _CMP_GE_OQ), VCMP(ah, VS(INFINITY), _CMP_LT_OQ));
    ok = VMAND(ok, VCMP(eb, ah, _CMP_NEQ_OQ));
    VD d = VABS(VSUB(VABS(l), VMUL(eb, VS(0x1p-53))));
    return VBITS(VMAND(ok, VCMP(d, VMUL(eb, VS(DD_MARGIN)), _CMP_GT_OQ)));
}

/* sigmoid, sigmoid', log_sigmoid', tanh', swish, gelu, exact gelu', softplus,
 * log_sigmoid, elu or selu (kern KA_*) over n elements; the uncertain lanes and the tail through the scalar
 * loop (dd_range_fma) */
VT static void VN(range)(int kern, const act_t *a, const aparam_t *p, double *o, const double *x, int64_t n)
{
    int64_t i = 0;
    if ((kern == KA_GELU || kern == KA_GELU_D) && !p->variant)   /* two vectors at a time: their chains overlap */
        for (; i + 2 * VL <= n; i += 2 * VL) {
            VD l0, l1, h0 = VN(gelu_exact)(VLOAD(x + i), kern == KA_GELU_D, &l0);
            VD h1 = VN(gelu_exact)(VLOAD(x + i + VL), kern == KA_GELU_D, &l1);
            VSTORE(o + i, h0);
            VSTORE(o + i + VL, h1);
            uint64_t ok = (uint64_t)VN(certain)(h0, l0) | (uint64_t)VN(certain)(h1, l1) << VL;
            if (ok != (UINT64_C(1) << 2 * VL) - 1)
                for (int k = 0; k < 2 * VL; k++)
                    if (!(ok >> k & 1))
                        o[i + k] = isfinite(x[i + k]) ? careful_round(a->c, x[i + k], p, DT_FP64) : a->f(x[i + k], p);
        }
    for (; i + VL <= n; i += VL) {
        VD v = VLOAD(x + i), h, l;
        if ((kern == KA_GELU || kern == KA_GELU_D) && !p->variant) {
            h = VN(gelu_exact)(v, kern == KA_GELU_D, &l);
        } else if (kern == KA_SOFTPLUS || kern == KA_LOG_SIGMOID) {
            h = VN(softplus)(v, kern == KA_LOG_SIGMOID, &l);
        } else if (kern == KA_ELU || kern == KA_SELU) {
            h = VN(elu)(v, kern == KA_SELU, p->a, &l);
        } else if (kern == KA_GELU) {
            VD x2 = VMUL(v, v), x2l = VFMS(v, v, x2);
            VD x3 = VMUL(x2, v), x3l = VADD(VFMS(x2, v, x3), VMUL(x2l, v));
            VD pp = VMUL(VS(GELU_C), x3);
            VD pl = VADD(VADD(VFMS(VS(GELU_C), x3, pp), VMUL(VS(GELU_C), x3l)), VMUL(VS(GELU_C_LO), x3));
            VD sh = VADD(v, pp), bb = VSUB(sh, v);
            VD sl = VADD(VADD(VSUB(v, VSUB(sh, bb)), VSUB(pp, bb)), pl);
            VD uh = VMUL(VS(SQRT_2_PI), sh);
            VD ul = VADD(VADD(VFMS(VS(SQRT_2_PI), sh, uh), VMUL(VS(SQRT_2_PI), sl)), VMUL(VS(SQRT_2_PI_LO), sh));
            VD th = VMUL(VS(2.0), uh), tl = VMUL(VS(2.0), ul);
            VM in = VMAND(VCMP(VABS(v), VS(GELU_FAR), _CMP_LE_OQ), VCMP(VABS(th), VS(DD_XMAX), _CMP_LE_OQ));
            th = VBLEND(in, VS(0.0), th);
            h = VN(sig)(th, tl, &l);
            h = VN(muld)(v, h, l, &l);
            h = VBLEND(in, VS(NAN), h);
        } else if (kern == KA_SIGMOID_D || kern == KA_TANH_D) {   /* as d_sig2 */
            bool th_ = kern == KA_TANH_D;
            VM in = VCMP(VABS(v), VS(th_ ? DD_XMAX / 2 : DD_XMAX), _CMP_LE_OQ);
            VD arg = th_ ? VMUL(VS(-2.0), VABS(v)) : VNEG(VABS(v)), el;
            VD eh = VN(exp)(VBLEND(in, VS(0.0), arg), &el);
            VD t = VADD(VS(1.0), eh), tl = VADD(VSUB(eh, VSUB(t, VS(1.0))), el);
            VD p2 = VMUL(t, t), pe = VFMS(t, t, p2), c = VADD(pe, VFMA(t, tl, VMUL(tl, t)));
            VD t2 = VADD(p2, c), t2l = VSUB(c, VSUB(t2, p2));
            VD mul = VS(th_ ? 4.0 : 1.0);
            h = VN(div)(VMUL(mul, eh), VMUL(mul, el), t2, t2l, &l);
            h = VBLEND(in, VS(NAN), h);
        } else {   /* sigmoid, swish; log_sigmoid' = σ(-x) */
            VD xs = kern == KA_LOG_SIGMOID_D ? VNEG(v) : v;
            VM in = VCMP(VABS(v), VS(DD_XMAX), _CMP_LE_OQ);
            h = VN(sig)(VBLEND(in, VS(0.0), xs), VS(0.0), &l);
            if (kern == KA_SWISH) h = VN(muld)(v, h, l, &l);
            h = VBLEND(in, VS(NAN), h);
        }
        VSTORE(o + i, h);
        int ok = VN(certain)(h, l);
        if (ok != (1 << VL) - 1)
            for (int k = 0; k < VL; k++)
                if (!(ok >> k & 1))
                    o[i + k] = isfinite(x[i + k]) ? careful_round(a->c, x[i + k], p, DT_FP64) : a->f(x[i + k], p);
    }
    if (i < n) dd_range_fma(kern, a, p, o + i, x + i, n - i);
}

/* the instantiation's parameters end here, so the next one can set them again */
#undef VT
#undef VD
#undef VI
#undef VM
#undef VL
#undef VN
#undef VS
#undef VADD
#undef VSUB
#undef VMUL
#undef VDIV
#undef VFMA
#undef VFMS
#undef VFNMA
#undef VNEG
#undef VABS
#undef VCI
#undef VCD
#undef VISUB
#undef VIADD
#undef VIAND
#undef VISET
#undef VISHL
#undef VLOOKUP
#undef VGATHER
#undef VCMP
#undef VBLEND
#undef VMAND
#undef VBITS
#undef VLOAD
#undef VSTORE
