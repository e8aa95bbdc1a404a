//! Copying: the system clipboard through arboard, with an OSC 52 escape as the fallback for
//! SSH and headless sessions (the terminal puts the text on the local clipboard).

use std::io::{IsTerminal, Write};

/// The clipboard, kept open for the life of the workbench (on X11 the text is served by the
/// process that copied it).
pub struct Clipboard {
    system: Option<arboard::Clipboard>,
}

impl Default for Clipboard {
    fn default() -> Self {
        Clipboard::new()
    }
}

/// Standard base64 with padding (OSC 52 wants it).
pub fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

impl Clipboard {
    /// Opens the system clipboard if there is one.
    pub fn new() -> Clipboard {
        Clipboard {
            system: arboard::Clipboard::new().ok(),
        }
    }

    /// Copies `text`; says how, or why it could not.
    ///
    /// # Errors
    /// Neither the system clipboard nor a terminal for OSC 52 is available.
    pub fn copy(&mut self, text: &str) -> Result<&'static str, String> {
        if let Some(c) = &mut self.system
            && c.set_text(text.to_string()).is_ok()
        {
            return Ok("system clipboard");
        }
        let mut out = std::io::stdout();
        if !out.is_terminal() {
            return Err("no system clipboard and no terminal for OSC 52".into());
        }
        write!(out, "\x1b]52;c;{}\x07", base64(text.as_bytes()))
            .and_then(|_| out.flush())
            .map_err(|e| e.to_string())?;
        Ok("OSC 52: your terminal must allow clipboard writes")
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn base64_matches_the_rfc_vectors() {
        for (i, o) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(super::base64(i.as_bytes()), o);
        }
    }
}
