"""The toolkit's lines for a human (a lenient read's skipped lines, a
stand-in's banner, a note) reach Python as warnings, which a notebook
shows and ``warnings`` filters, never the process's stderr, which a
notebook does not show."""

import warnings

import pytest

import usched

HEADER = "; MaxProcs: 8\n"
JOB = "{} 0 -1 10 2 -1 -1 2 20 -1 1 -1 -1 -1 -1 -1 -1 -1\n"


def test_a_lenient_reads_skipped_lines_are_a_warning_not_stderr(tmp_path, capfd):
    path = tmp_path / "broken.swf"
    path.write_text(HEADER + JOB.format(1) + "1 2 x\n" + JOB.format(2))
    with pytest.warns(UserWarning, match=r"broken\.swf: 1 malformed line") as caught:
        w = usched.load(str(path), lenient=True)
    assert len(w) == 2
    text = "\n".join(str(c.message) for c in caught)
    assert "broken.swf:3:" in text and not text.startswith("warning: "), text
    out, err = capfd.readouterr()
    assert err == "" and out == "", (out, err)


def test_a_filter_silences_them_and_an_error_filter_does_not_lose_them(tmp_path, capfd):
    path = tmp_path / "broken.swf"
    path.write_text(HEADER + "1 2 x\n" + JOB.format(2))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert len(usched.load(str(path), lenient=True)) == 1
    assert capfd.readouterr() == ("", "")
    # A warning turned into an error cannot stop the call that made it:
    # the call completes and the line goes to stderr instead.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert len(usched.load(str(path), lenient=True)) == 1
    assert "malformed line" in capfd.readouterr().err
