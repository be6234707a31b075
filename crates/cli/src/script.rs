//! Text that goes into job scripts: values checked to fit on one line,
//! quoted for a POSIX shell or for an `#SBATCH` line. `slurm` writes its
//! scripts with these; the command line checks its values with them.

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

/// Quotes `s` for a POSIX shell: the one place script text is quoted.
/// Values are checked by [`check_script_value`] first.
pub fn quote(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+=:,@%".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
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
pub fn sbatch_path(p: &str) -> String {
    sbatch_word(&p.replace('%', "%%"))
}
