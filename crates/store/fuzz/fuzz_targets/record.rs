//! Any bytes: the record parser and replay return an error or a record,
//! never panic; a record that replays writes a text that reads back.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabula_store::Record;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(record) = Record::parse(text) else {
        return;
    };
    if record.replay().is_ok() {
        let written = record.write().expect("a replayable record writes");
        Record::read(&written).expect("a written record reads back");
    }
});
