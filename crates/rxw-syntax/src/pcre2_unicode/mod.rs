//! PCRE2's own Unicode data, asked of the real library by `gen/pcre2_fold.py`: its caseless
//! sets ([`fold`]).

pub mod fold;
