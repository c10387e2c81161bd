//! One test per row of the book's section 8 table: stats, price, limit and
//! powers as the crate reads them from `data/pieces.toml`; then the piece
//! table's validation.

use tabula_covenant::{
    Aura, DataError, HolyStrike, PIECES_TOML, PieceTable, PieceType, Ranged, Sacrifice, Wrath,
};

/// Name, Attack, Defence, Blood, Speed, price (None: "—"), limit (None: unlimited).
type Row = (&'static str, u8, u8, u8, u8, Option<u8>, Option<u8>);

fn row(index: usize, expected: Row) -> &'static PieceType {
    let t = &PieceTable::builtin().pieces[index];
    assert_eq!(
        (
            t.name.as_str(),
            t.attack,
            t.defence,
            t.blood,
            t.speed,
            t.price,
            t.limit
        ),
        expected
    );
    t
}

fn aura(amount: i8) -> Option<Aura> {
    Some(Aura { amount, radius: 4 })
}

#[test]
fn the_table_has_23_rows_in_the_books_order() {
    let names: Vec<&str> = PieceTable::builtin()
        .pieces
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(
        names,
        [
            "King",
            "Queen",
            "Heir",
            "Princess",
            "Maiden",
            "Militia",
            "Pikeman",
            "Archer",
            "Blade",
            "Vanguard",
            "Berserker",
            "Bastion",
            "Apostle",
            "Prophet",
            "Lancer",
            "Templar",
            "Ranger",
            "Angel",
            "Paladin",
            "Attila",
            "Wayfarer",
            "Elias",
            "Levite"
        ]
    );
    let riders: Vec<&str> = PieceTable::builtin()
        .pieces
        .iter()
        .filter(|p| p.rider)
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(riders, ["Lancer", "Templar", "Ranger", "Paladin", "Attila"]);
}

#[test]
fn row_01_king() {
    let t = row(0, ("King", 3, 4, 15, 4, None, Some(1)));
    assert!(t.king && t.royal && !t.legend);
    assert_eq!(t.powers.aura_attack, aura(1));
}

#[test]
fn row_02_queen() {
    let t = row(1, ("Queen", 1, 1, 12, 4, Some(3), Some(1)));
    assert!(t.royal && !t.king && !t.legend);
    assert_eq!(t.powers.aura_defence, aura(1));
}

#[test]
fn row_03_heir() {
    let t = row(2, ("Heir", 3, 4, 15, 4, Some(3), Some(1)));
    assert!(t.royal && !t.legend);
    assert_eq!(t.powers.aura_speed, aura(2));
    assert!(t.powers.succession);
}

#[test]
fn row_04_princess() {
    let t = row(3, ("Princess", 1, 1, 12, 4, Some(3), Some(1)));
    assert!(t.royal && !t.legend);
    assert_eq!(t.powers.aura_recovery, aura(2));
}

#[test]
fn row_05_maiden() {
    let t = row(4, ("Maiden", 2, 2, 12, 4, Some(4), Some(1)));
    assert!(t.royal && t.legend);
    assert_eq!(t.powers.for_the_kingdom, aura(4));
}

#[test]
fn row_06_militia() {
    let t = row(5, ("Militia", 2, 3, 12, 4, Some(1), None));
    assert_eq!(t.powers.shield_wall, Some(1));
}

#[test]
fn row_07_pikeman() {
    let t = row(6, ("Pikeman", 2, 2, 12, 4, Some(1), None));
    assert_eq!(t.powers.charge, Some(3));
    assert_eq!(t.powers.set_pike, Some(1));
    assert!(!t.rider);
}

#[test]
fn row_08_archer() {
    let t = row(7, ("Archer", 2, 1, 12, 4, Some(1), None));
    assert_eq!(
        t.powers.ranged,
        Some(Ranged {
            range: 4,
            cost: 3,
            attack: 2
        })
    );
    assert_eq!(t.powers.bastions_height, Some(1));
}

#[test]
fn row_09_blade() {
    let t = row(8, ("Blade", 4, 1, 12, 4, Some(1), None));
    assert_eq!(t.powers.sweep, Some(3));
}

#[test]
fn row_10_vanguard() {
    let t = row(9, ("Vanguard", 3, 5, 15, 4, Some(2), None));
    assert_eq!(t.powers.bulwark, Some(2));
}

#[test]
fn row_11_berserker() {
    let t = row(10, ("Berserker", 5, 3, 15, 4, Some(2), None));
    assert_eq!(t.powers.fury, Some(2));
}

#[test]
fn row_12_bastion() {
    let t = row(11, ("Bastion", 1, 7, 20, 2, Some(2), None));
    assert_eq!(
        t.powers.ranged,
        Some(Ranged {
            range: 2,
            cost: 2,
            attack: 1
        })
    );
    assert!(t.powers.stone_wall);
}

#[test]
fn row_13_apostle() {
    let t = row(12, ("Apostle", 2, 1, 12, 4, Some(2), None));
    assert_eq!(
        t.powers.holy_strike,
        Some(HolyStrike {
            damage: 6,
            range: 2,
            cost: 2
        })
    );
    assert_eq!(t.powers.convert, Some(1));
}

#[test]
fn row_14_prophet() {
    let t = row(13, ("Prophet", 1, 1, 12, 4, Some(2), None));
    assert_eq!(t.powers.healing, Some(4));
}

#[test]
fn row_15_lancer() {
    let t = row(14, ("Lancer", 3, 4, 15, 8, Some(2), None));
    assert_eq!(t.powers.charge, Some(7));
    assert!(t.rider);
}

#[test]
fn row_16_templar() {
    let t = row(15, ("Templar", 5, 5, 15, 8, Some(2), None));
    assert_eq!(t.powers.sacrifice, Some(Sacrifice { acts: 2, blood: 4 }));
    assert!(t.rider);
    assert_eq!(t.base_acts(), 2);
}

#[test]
fn row_17_ranger() {
    let t = row(16, ("Ranger", 3, 2, 15, 8, Some(2), None));
    assert_eq!(
        t.powers.ranged,
        Some(Ranged {
            range: 4,
            cost: 3,
            attack: 3
        })
    );
    assert_eq!(t.powers.bastions_height, None);
    assert!(t.rider);
}

#[test]
fn row_18_angel() {
    let t = row(17, ("Angel", 0, 1, 12, 4, Some(4), Some(1)));
    assert!(t.legend && !t.royal);
    assert_eq!(
        t.powers.wrath,
        Some(Wrath {
            attack: 7,
            range: 4
        })
    );
    assert_eq!(t.powers.grace, Some(4));
}

#[test]
fn row_19_paladin() {
    let t = row(18, ("Paladin", 7, 7, 15, 8, Some(4), Some(1)));
    assert!(t.legend && t.rider);
    assert_eq!(t.powers.sacrifice, Some(Sacrifice { acts: 2, blood: 4 }));
}

#[test]
fn row_20_attila() {
    let t = row(19, ("Attila", 4, 3, 15, 8, Some(4), Some(1)));
    assert!(t.legend && t.rider);
    assert_eq!(
        t.powers.ranged,
        Some(Ranged {
            range: 4,
            cost: 3,
            attack: 4
        })
    );
}

#[test]
fn row_21_wayfarer() {
    let t = row(20, ("Wayfarer", 5, 3, 15, 4, Some(4), Some(1)));
    assert!(t.legend);
    assert_eq!(t.powers.two_acts, Some(2));
    assert!(t.powers.pass_through && t.powers.untouchable);
    assert_eq!(t.base_acts(), 2);
}

#[test]
fn row_22_elias() {
    let t = row(21, ("Elias", 3, 2, 12, 4, Some(4), Some(1)));
    assert!(t.legend);
    assert_eq!(
        t.powers.holy_strike,
        Some(HolyStrike {
            damage: 7,
            range: 2,
            cost: 2
        })
    );
    assert_eq!(t.powers.convert, None);
}

#[test]
fn row_23_levite() {
    let t = row(22, ("Levite", 3, 1, 15, 4, Some(4), Some(1)));
    assert!(t.legend);
    assert_eq!(t.powers.curse, Some(4));
}

#[test]
fn the_rule_numbers_are_the_books() {
    let r = PieceTable::builtin().rules;
    assert_eq!(
        (
            r.damage_constant,
            r.minimum_damage,
            r.walk_cost,
            r.rough_cost
        ),
        (4, 1, 1, 2)
    );
    assert_eq!(
        (
            r.forest_defence,
            r.desert_defence,
            r.hill_attack,
            r.city_defence
        ),
        (1, -1, 1, 1)
    );
    assert_eq!((r.city_income, r.draw_rounds), (2, 30));
}

// ----- validation ------------------------------------------------------------

fn broken(from: &str, to: &str) -> DataError {
    assert!(PIECES_TOML.contains(from), "{from}");
    let text = PIECES_TOML.replacen(from, to, 1);
    PieceTable::from_toml(&text).unwrap_err()
}

fn names_field(e: &DataError, piece: &str, field: &str) {
    let DataError::Piece {
        piece: p, field: f, ..
    } = e
    else {
        panic!("{e}");
    };
    assert_eq!((p.as_str(), f.as_str()), (piece, field), "{e}");
}

#[test]
fn bad_piece_tables_are_refused_with_the_piece_and_field_named() {
    names_field(
        &broken(
            "attack = 4\ndefence = 1\nblood = 12\nspeed = 4\nprice = 1",
            "attack = -4\ndefence = 1\nblood = 12\nspeed = 4\nprice = 1",
        ),
        "Blade",
        "attack",
    );
    names_field(&broken("code = \"Mi\"", "code = \"MI\""), "Militia", "code");
    names_field(
        &broken(
            "name = \"Queen\"\ncode = \"Qu\"\nattack = 1\ndefence = 1\nblood = 12\nspeed = 4\nprice = 3\nlimit = 1",
            "name = \"Queen\"\ncode = \"Qu\"\nattack = 1\ndefence = 1\nblood = 12\nspeed = 4\nprice = 3\nlimit = \"unlimited\"",
        ),
        "Queen",
        "limit",
    );
    names_field(&broken("price = \"none\"", "price = 5"), "King", "king");
    names_field(&broken("blood = 20", "blood = 0"), "Bastion", "blood");
    names_field(
        &broken(
            "{ power = \"sweep\", targets = 3 }",
            "{ power = \"sweep\", targets = 9 }",
        ),
        "Blade",
        "sweep.targets",
    );
    names_field(
        &broken(
            "powers = [{ power = \"curse\", radius = 4 }]",
            "powers = [{ power = \"curse\", radius = 4 }, { power = \"curse\", radius = 3 }]",
        ),
        "Levite",
        "powers",
    );
    names_field(
        &broken(
            "{ power = \"holy-strike\", damage = 6, range = 2, cost = 2 },",
            "",
        ),
        "Apostle",
        "powers",
    );
    names_field(
        &broken("price = 2", "price = \"cheap\""),
        "Vanguard",
        "price",
    );
}

#[test]
fn bad_table_shapes_are_refused() {
    // Unknown power, unknown field, missing field: TOML shape errors name the key.
    let e = broken("power = \"bulwark\"", "power = \"bulwarks\"");
    assert!(matches!(e, DataError::Toml(_)), "{e}");
    let e = broken(
        "rider = true\npowers = [{ power = \"charge\"",
        "ridr = true\npowers = [{ power = \"charge\"",
    );
    assert!(e.to_string().contains("ridr"), "{e}");
    let e = broken("speed = 2\n", "");
    assert!(e.to_string().contains("speed"), "{e}");
    // Table-level rules.
    let e = broken("code = \"Le\"", "code = \"Ki\"");
    assert!(
        matches!(e, DataError::Table(_)) && e.to_string().contains("Ki"),
        "{e}"
    );
    let e = broken("name = \"Elias\"", "name = \"king\"");
    assert!(matches!(e, DataError::Table(_)), "{e}");
    let e = broken("draw-rounds = 30", "draw-rounds = 0");
    assert!(
        matches!(
            e,
            DataError::Rules {
                field: "draw-rounds",
                ..
            }
        ),
        "{e}"
    );
    let e = PieceTable::from_toml("[rules]\n").unwrap_err();
    assert!(matches!(e, DataError::Toml(_)), "{e}");
    assert!(PieceTable::from_toml("not toml at all = = =").is_err());
}
