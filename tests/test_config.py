"""The configuration: defaults, a user's overlay, and clear errors for bad files."""

import pytest

from companion.config import ConfigError, default_values, load_config


def write(tmp_path, text):
    path = tmp_path / "table.toml"
    path.write_text(text)
    return str(path)


def test_defaults_load_and_validate():
    cfg = load_config(None)
    assert cfg.path is None
    assert cfg["lcd"]["address"] == 0x27 and (cfg["lcd"]["cols"], cfg["lcd"]["rows"]) == (20, 4)
    assert cfg["buttons"]["pins"]["ok"] == 17
    assert set(cfg["leds"]["pins"]) == {"waiting", "accepted", "attention", "broken", "death"}
    assert cfg["daemon"]["auto_accept_seconds"] == 3.0
    assert cfg["players"]["names"] == []


def test_user_file_overrides_only_its_keys(tmp_path):
    cfg = load_config(write(tmp_path, """
[lcd]
address = 0x3F
[buttons.pins]
ok = 16
[players]
names = ["Ana", "Ben"]
"""))
    assert cfg["lcd"]["address"] == 0x3F
    assert cfg["lcd"]["cols"] == 20                      # untouched default
    assert cfg["buttons"]["pins"]["ok"] == 16
    assert cfg["buttons"]["pins"]["back"] == 27
    assert cfg["players"]["names"] == ["Ana", "Ben"]
    assert cfg.path.endswith("table.toml")


@pytest.mark.parametrize("text, words", [
    ("[lcd]\nadress = 0x27\n", ["lcd.adress", "allowed keys", "address"]),
    ("[lcdd]\nport = 1\n", ["lcdd", "allowed keys"]),
    ("[lcd]\naddress = \"0x27\"\n", ["lcd.address", "integer"]),
    ("[lcd]\naddress = 0x80\n", ["lcd.address", "0x80", "0x03", "0x77"]),
    ("[buttons.pins]\nok = 27\n", ["buttons.pins.ok", "GPIO27", "buttons.pins.back"]),
    ("[leds.pins]\ndeath = 17\n", ["leds.pins.death", "GPIO17", "buttons.pins.ok"]),
    ("[leds.pins]\nwaiting = 2\n", ["leds.pins.waiting", "GPIO2", "SDA"]),
    ("[buttons.pins]\nup = 40\n", ["buttons.pins.up", "0 to 27"]),
    ("[camera]\nbackend = \"usb\"\n", ["camera.backend", "opencv", "picamera2"]),
    ("[daemon]\nauto_accept_seconds = true\n", ["daemon.auto_accept_seconds", "number"]),
    ("[players]\nnames = [\"Ana\", 3]\n", ["players.names", "list of strings"]),
    ("[lcd]\ncols = 40\nrows = 4\n", ["80 characters"]),
    ("lcd = 3\n", ["lcd", "table"]),
    ("[lcd\naddress = 1\n", ["not valid TOML"]),
])
def test_bad_files_name_the_key_and_what_is_allowed(tmp_path, text, words):
    with pytest.raises(ConfigError) as err:
        load_config(write(tmp_path, text))
    for word in words:
        assert word in str(err.value), (word, str(err.value))


def test_a_shared_pin_is_fine_when_that_device_is_not_on_gpio(tmp_path):
    # The LEDs live on the panel, so their GPIO numbers are not wired to anything.
    cfg = load_config(write(tmp_path, "[leds]\nbackend = \"panel\"\n[leds.pins]\ndeath = 17\n"))
    assert cfg["leds"]["pins"]["death"] == 17


def test_undo_pin_only_counts_when_undo_has_its_own_button(tmp_path):
    load_config(write(tmp_path, "[buttons.pins]\nundo = 5\n"))     # undo on hold-back: unused
    with pytest.raises(ConfigError, match="buttons.pins.undo|leds.pins.waiting"):
        load_config(write(tmp_path, "[buttons]\nundo = \"button\"\n[buttons.pins]\nundo = 5\n"))


def test_missing_file_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(str(tmp_path / "nope.toml"))


def test_replace_validates_and_leaves_the_original_alone():
    cfg = load_config(None)
    mock = cfg.replace({"lcd": {"backend": "memory"}})
    assert mock["lcd"]["backend"] == "memory" and cfg["lcd"]["backend"] == "i2c"
    with pytest.raises(ConfigError, match="lcd.backend"):
        cfg.replace({"lcd": {"backend": "hologram"}})


def test_every_default_key_is_in_the_schema_and_the_other_way_round():
    from companion.config import SCHEMA

    def keys(d, prefix=""):
        out = set()
        for k, v in d.items():
            out.add(prefix + k)
            if isinstance(v, dict):
                out |= keys(v, prefix + k + ".")
        return out
    assert keys(default_values()) == keys(SCHEMA)


def test_paths_expand_the_home_directory():
    cfg = load_config(None)
    assert not cfg.expand_path("daemon", "state_dir").startswith("~")
