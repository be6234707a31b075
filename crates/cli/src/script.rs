//! Text that goes into job scripts: values checked to fit on one line,
//! quoted for a POSIX shell or for an `#SBATCH` line. `slurm` writes its
//! scripts with these; the command line checks its values with them, and
//! quotes every command it prints for the user to run with [`quote`].

use std::fmt::Write as _;
use std::path::Path;

use experiments::encode;

/// Refuses a value for a job script that holds a control character (a
/// newline would end the `#SBATCH` or shell line and start another).
pub fn check_script_value(flag: &str, value: &str) -> Result<(), String> {
    if let Some(c) = value.chars().find(|c| c.is_control()) {
        return Err(format!(
            "{flag} holds the control character {:?}; job scripts take one-line values without \
             control characters",
            c
        ));
    }
    Ok(())
}

/// Quotes `s` as one word for a POSIX shell: the one place shell text is
/// quoted, for the job scripts `slurm` writes (values checked by
/// [`check_script_value`] first) and for every command the tool prints
/// for the user to run. A word of only letters, digits and `/._-+=:,@%`
/// stays as it is; any other is single-quoted (`'it'\''s'`); one holding
/// a character that is never shown raw ([`encode::is_escaped`]: a control
/// character, a bidirectional control) is written `$'...'` with that
/// character as octal escapes of its UTF-8 bytes (`$'a\012b'`), so the
/// command stays on one line, shows nothing invisible and still names the
/// same value when pasted (bash, zsh, ksh and POSIX.1-2024 shells).
pub fn quote(s: &str) -> String {
    quote_bytes(s.as_bytes())
}

/// [`quote`] for a path, byte for byte (a path that is not UTF-8 gets the
/// octal escapes of the bytes that are not).
pub fn quote_path(p: &Path) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        quote_bytes(p.as_os_str().as_bytes())
    }
    #[cfg(not(unix))]
    {
        quote(&p.to_string_lossy())
    }
}

fn quote_bytes(b: &[u8]) -> String {
    match std::str::from_utf8(b) {
        Ok(s)
            if !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "/._-+=:,@%".contains(c)) =>
        {
            s.to_string()
        }
        Ok(s) if !s.chars().any(encode::is_escaped) => {
            format!("'{}'", s.replace('\'', r"'\''"))
        }
        _ => {
            let mut out = String::from("$'");
            let octal = |out: &mut String, byte: u8| {
                let _ = write!(out, "\\{byte:03o}");
            };
            for chunk in b.utf8_chunks() {
                for c in chunk.valid().chars() {
                    match c {
                        '\\' => out.push_str("\\\\"),
                        '\'' => out.push_str("\\'"),
                        c if encode::is_escaped(c) => {
                            c.encode_utf8(&mut [0; 4])
                                .bytes()
                                .for_each(|byte| octal(&mut out, byte));
                        }
                        c => out.push(c),
                    }
                }
                chunk
                    .invalid()
                    .iter()
                    .for_each(|&byte| octal(&mut out, byte));
            }
            out.push('\'');
            out
        }
    }
}

/// One argument of an `#SBATCH` line as sbatch reads it (`_get_argument`
/// in sbatch's `opt.c`): blanks and `#` inside double quotes, `"` and `\`
/// escaped by `\`. A value with nothing special is left as it is.
pub fn sbatch_word(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+=:,@%".contains(c))
    {
        return s.to_string();
    }
    let mut out = String::from("\"");
    for c in s.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// A path as Slurm's filename patterns read it (`%` doubled, so `%A` in a
/// directory name stays `%A`), as one `#SBATCH` argument ([`sbatch_word`]).
///
/// A path holding a backslash is refused: Slurm reads any `\` in a
/// filename pattern as "expand nothing here, drop the backslashes", so
/// neither the path nor its `%` patterns would be what was meant, and
/// there is no escape for it.
pub fn sbatch_path(p: &str) -> Result<String, String> {
    if p.contains('\\') {
        return Err(format!(
            "{p:?} holds a backslash, which Slurm's file name patterns (#SBATCH --output) \
             cannot take literally (a backslash turns the pattern off and is dropped); \
             choose a path without one"
        ));
    }
    Ok(sbatch_word(&p.replace('%', "%%")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_quoted_for_a_shell() {
        let check = |s: &str, expected: &str| assert_eq!(quote(s), expected, "{s:?}");
        check("adaptive/fig4", "adaptive/fig4");
        check("a b", "'a b'");
        check("it's", r"'it'\''s'");
        check("", "''");
        check("$HOME", "'$HOME'");
        check("-x/y", "-x/y");
        check(
            "/tmp/x.toml; touch /tmp/PWNED #$(id)`id`",
            "'/tmp/x.toml; touch /tmp/PWNED #$(id)`id`'",
        );
        // Never a raw control or bidi character, never a second line.
        check("a\nb", r"$'a\012b'");
        check("x\u{1b}[2J 'q' \\", r"$'x\033[2J \'q\' \\'");
        check("r\u{202e}l", r"$'r\342\200\256l'");
        check("\t", r"$'\011'");
    }

    #[test]
    #[cfg(unix)]
    fn paths_are_quoted_byte_for_byte() {
        use std::ffi::OsStr;
        use std::os::unix::ffi::OsStrExt;

        assert_eq!(quote_path(Path::new("cells/a b$(id)")), "'cells/a b$(id)'");
        let not_utf8 = Path::new(OsStr::from_bytes(b"a\xffb"));
        assert_eq!(quote_path(not_utf8), r"$'a\377b'");
    }

    /// What bash makes of a quoted word is the word.
    #[test]
    fn bash_reads_the_quoted_word_back() {
        let words = [
            "plain",
            "a b",
            "it's",
            "$(id)`id`",
            "a\nb",
            "x\u{1b}'\\",
            "r\u{202e}\u{85}l",
            "\t-",
        ];
        let script: String = words
            .iter()
            .map(|w| format!("printf '%s\\0' {}\n", quote(w)))
            .collect();
        let out = std::process::Command::new("bash")
            .arg("-c")
            .arg(&script)
            .output()
            .expect("bash runs the job scripts, so the tests need it too");
        let read: Vec<String> = out
            .stdout
            .split(|&b| b == 0)
            .filter(|w| !w.is_empty())
            .map(|w| String::from_utf8(w.to_vec()).unwrap())
            .collect();
        assert_eq!(read, words);
    }
}
